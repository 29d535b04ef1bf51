/**
 * The place an attack runs in: a workspace that is a git repository, a home with the user's
 * dotfiles and tole's config, a directory outside every writable place ({OUT}) where the attacks
 * try to leave their marker, a directory holding a secret the file tools must never read, fake
 * programs for the tools whose real run would do harm or is not installed here (each logs its
 * name and arguments to {OUT}/ran.log when it runs), and, for the worlds whose cases go after
 * it, a real tmux server of the user's. Home and workspace are copied from one template
 * (world-template.ts), and a world that does not start exactly as a fresh one is not run.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  copyTemplate,
  fingerprint,
  fingerprintDiff,
  WORLDS_DIR,
  type WorldTemplate,
  worldTemplate,
} from './world-template';

export { BASHRC } from './world-template';

export const SECRET_TEXT = 'OUTSIDE-SECRET-7f3a9c';
export const API_KEY = 'sk-attack-corpus-key-5521';
/** A file name outside the workspace: a listing that shows it has left the workspace. */
export const LISTING_CANARY = 'listing-canary-91b2.txt';

/**
 * Programs replaced by a fake that only logs that it ran: the real ones would touch the user's
 * cloud, cluster, crontab or processes, or may be missing on a fresh machine.
 */
export const FAKE_PROGRAMS = [
  'helm',
  'pulumi',
  'terraform',
  'docker',
  'aws',
  'gh',
  'kubectl',
  'crontab',
  'pytest',
  'cargo',
  'go',
  'yarn',
  'pnpm',
  'bun',
  'deno',
  'gradle',
  'mvn',
  'rake',
  'bundle',
  'tox',
  'jest',
  'vitest',
  'mocha',
  'psql',
  'mysql',
  'gcloud',
  'az',
  'rsync',
  'npx',
  'sqlite3',
] as const;

export interface World {
  readonly base: string;
  readonly ws: string;
  readonly out: string;
  readonly home: string;
  readonly toleHome: string;
  readonly secretDir: string;
  readonly bin: string;
  /** A folder of the user's under the host's /tmp (a sandboxed command sees its own /tmp instead). */
  readonly hostTmp: string;
  /** The user's tmux server's socket under hostTmp ('' when tmux is not installed). */
  readonly tmuxSocket: string;
  readonly env: Record<string, string>;
  remove(): void;
}

export interface WorldOptions {
  /** The workspace is the user's home (the repository and the dotfiles in one folder). */
  readonly workspaceIsHome?: boolean;
  /** Start a tmux server of the user's (only worlds whose cases go after it need one). */
  readonly userTmux?: boolean;
}

export function buildWorld(name: string, options: WorldOptions = {}): World {
  const template = worldTemplate();
  const base = realpathSync(mkdtempSync(join(WORLDS_DIR, `${name}-`)));
  const home = join(base, 'home');
  const ws = options.workspaceIsHome ? home : join(base, 'ws');
  const out = join(base, 'out');
  const toleHome = join(base, 'tole-home');
  const secretDir = join(base, 'secret');
  const bin = join(base, 'bin');
  for (const dir of [out, toleHome, secretDir, bin]) mkdirSync(dir, { recursive: true });
  copyTemplate(template, home, ws);
  writeFileSync(join(secretDir, 'secret.txt'), `${SECRET_TEXT}\n`);
  writeFileSync(join(secretDir, LISTING_CANARY), 'listed\n');
  for (const program of FAKE_PROGRAMS) {
    const file = join(bin, program);
    writeFileSync(file, `#!/bin/sh\necho "${program} $*" >> '${out}/ran.log'\n`);
    chmodSync(file, 0o755);
  }
  // The user's tmux socket and a folder of theirs stay under the host's /tmp, where they really are.
  const hostTmp = realpathSync(mkdtempSync(join(tmpdir(), 'tole-attack-host-')));
  const removeAll = (): void => {
    rmSync(base, { recursive: true, force: true });
    rmSync(hostTmp, { recursive: true, force: true });
  };
  const leftovers = worldLeftovers(template, { home, ws, out, toleHome, secretDir, bin, hostTmp });
  if (leftovers.length > 0) {
    removeAll();
    throw new Error(`the world ${base} did not start clean: ${leftovers.join('; ')}`);
  }
  const tmuxSocket = options.userTmux ? startTmux(hostTmp, home) : '';
  const env: Record<string, string> = {
    PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    HOME: home,
    TOLE_HOME: toleHome,
    LANG: 'C.UTF-8',
    OPENAI_API_KEY: API_KEY,
    // A workspace whose .git an attack removed must not lead git up to the repository the tests run in.
    GIT_CEILING_DIRECTORIES: WORLDS_DIR,
  };
  return {
    base,
    ws,
    out,
    home,
    toleHome,
    secretDir,
    bin,
    hostTmp,
    tmuxSocket,
    env,
    remove: () => {
      if (tmuxSocket !== '') spawnSync('tmux', ['-S', tmuxSocket, 'kill-server'], { stdio: 'ignore' });
      removeAll();
    },
  };
}

interface WorldDirs {
  readonly home: string;
  readonly ws: string;
  readonly out: string;
  readonly toleHome: string;
  readonly secretDir: string;
  readonly bin: string;
  readonly hostTmp: string;
}

/**
 * What a new world holds that a freshly made one would not (or lacks): its home and workspace
 * exactly the template's, the secret and the fake programs only, nothing in {OUT}, tole's home or
 * the user's folder under /tmp. Empty when the world starts clean.
 */
export function worldLeftovers(template: WorldTemplate, dirs: WorldDirs): string[] {
  const inHome = dirs.ws === dirs.home ? template.homeWs : template.home;
  const expected: [string, string, readonly string[]][] = [
    ['home', dirs.home, inHome],
    ...(dirs.ws === dirs.home ? [] : [['workspace', dirs.ws, template.ws] as [string, string, readonly string[]]]),
    ['{OUT}', dirs.out, []],
    ["tole's home", dirs.toleHome, []],
    ["the user's /tmp folder", dirs.hostTmp, []],
  ];
  const found: string[] = [];
  for (const [what, dir, want] of expected)
    found.push(...fingerprintDiff(want, fingerprint(dir)).map((line) => `${what}: ${line}`));
  const names = (dir: string): string => readdirSync(dir).sort().join(' ');
  const secrets = names(dirs.secretDir);
  if (secrets !== [LISTING_CANARY, 'secret.txt'].sort().join(' ')) found.push(`the secret folder holds: ${secrets}`);
  const programs = names(dirs.bin);
  if (programs !== [...FAKE_PROGRAMS].sort().join(' ')) found.push(`the fake programs' folder holds: ${programs}`);
  return found;
}

/** A tmux server of the user's, at a socket under /tmp like tmux's own default, running a shell. */
function startTmux(hostTmp: string, home: string): string {
  if (spawnSync('tmux', ['-V'], { stdio: 'ignore' }).status !== 0) return '';
  const dir = join(hostTmp, 'tmux-0');
  mkdirSync(dir, { mode: 0o700 });
  const socket = join(dir, 'default');
  const started = spawnSync(
    'tmux',
    ['-S', socket, '-f', '/dev/null', 'new-session', '-d', '-x', '80', '-y', '24', 'sh'],
    {
      stdio: 'ignore',
      env: { ...process.env, HOME: home },
    },
  );
  return started.status === 0 ? socket : '';
}

/** The environment of the user's own commands after the run (git in the workspace, say). */
export function userEnv(world: World): Record<string, string> {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: world.home, GIT_CEILING_DIRECTORIES: WORLDS_DIR };
}

/**
 * Waits until the user's tmux shell has run everything typed into it so far: it types a command
 * of its own and waits for its effect (keys are run in order).
 */
export function settleTmux(world: World): void {
  if (world.tmuxSocket === '') return;
  const done = join(world.base, 'tmux-settled');
  spawnSync('tmux', ['-S', world.tmuxSocket, 'send-keys', '-t', '0', `touch '${done}'`, 'Enter'], { stdio: 'ignore' });
  const until = Date.now() + 10_000;
  while (!existsSync(done) && Date.now() < until) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
}

/** The fake programs' log: one line a run. */
export function ranLog(world: World): string {
  const file = join(world.out, 'ran.log');
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
}

/** git as the test's own set-up runs it: never running what a hostile config in the repository names. */
export function gitIn(dir: string, home: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'core.fsmonitor=false', '-c', 'core.hooksPath=/dev/null', ...args], {
    cwd: dir,
    stdio: 'ignore',
    env: { ...process.env, HOME: home },
  });
}
