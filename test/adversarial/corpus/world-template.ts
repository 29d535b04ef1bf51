/**
 * What every world of the corpus starts from, made once per test process and copied into each
 * world: the user's home (dotfiles, tole's config) and a workspace that is a git repository with
 * one commit. Copying it costs one git (to refresh the copied index) where making it cost three
 * and a repository template's worth of files, for each of the 70-odd worlds.
 *
 * Worlds run side by side and a hostile call may reach this directory (it lies beside theirs), so
 * the template is checked against what it held when it was made before every copy, and every new
 * world is checked against the template after it: a world either starts exactly as a freshly made
 * one would, or it is not run at all.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../../support/repo-root';
import { treeState } from '../../support/workspace-state';

export const BASHRC = '# the user own bashrc\nexport PS1="$ "\n';

/**
 * Worlds live outside /tmp (under node_modules/.cache, which git ignores), so that the sandbox
 * shows them read-only as it shows the rest of the machine: {OUT} then proves the read-only
 * binding, not only the private /tmp, and the fake programs are found inside the sandbox too.
 * A checkout that is itself under a folder the sandbox replaces (a clone in /tmp) keeps its
 * worlds under the user's ~/.cache instead: there the sandbox would hide every world's fake
 * programs, and the cases that need them (a kept prefix's `npm test`) would test nothing.
 * The sandbox hides the user's home too (a checkout in it, or the ~/.cache above), so every
 * world's user config lists its bin/ as `sandbox.readable`, as a user keeps their own programs.
 */
const SANDBOX_HIDES = ['/tmp', '/var/tmp', '/run', '/dev/shm'];
export const WORLDS_DIR = SANDBOX_HIDES.some((dir) => realpathSync(REPO_ROOT).startsWith(`${dir}/`))
  ? join(homedir(), '.cache', 'tole-attack')
  : join(REPO_ROOT, 'node_modules', '.cache', 'tole-attack');

/** The index holds the stat data of the files it was written beside: a copy's differs, so it is compared by presence. */
const STAT_BOUND = /(^|\/)\.git\/index$/;

/**
 * Every path under `dir` with its kind, mode and content (a hash), one line each, sorted: two
 * directories with the same fingerprint hold the same files.
 */
export function fingerprint(dir: string): string[] {
  return Object.entries(treeState(dir, []))
    .map(
      ([path, state]) => `${path} ${STAT_BOUND.test(path) ? state.replace(/ [0-9a-f]{64}$/, ' (stat-bound)') : state}`,
    )
    .sort();
}

/** What differs between two fingerprints, a line each side, for a failure's message. */
export function fingerprintDiff(want: readonly string[], got: readonly string[]): string[] {
  const wanted = new Set(want);
  const have = new Set(got);
  return [
    ...want.filter((line) => !have.has(line)).map((line) => `missing: ${line}`),
    ...got.filter((line) => !wanted.has(line)).map((line) => `extra: ${line}`),
  ];
}

export interface WorldTemplate {
  readonly dir: string;
  /** The fingerprints of its parts when it was made: the home, the workspace, a workspace at $HOME. */
  readonly home: readonly string[];
  readonly ws: readonly string[];
  readonly homeWs: readonly string[];
  /** Throws, naming what changed, when the template no longer holds what it was made with. */
  verify(): void;
  remove(): void;
}

/** The git the set-up runs: the user's HOME (their .gitconfig), and never the repository the tests run in. */
export function setupGit(cwd: string, home: string, ...args: string[]): void {
  execFileSync('git', args, {
    cwd,
    stdio: 'ignore',
    env: { ...process.env, HOME: home, GIT_CEILING_DIRECTORIES: WORLDS_DIR },
  });
}

/** The template's folders: the home, the workspace, a workspace at $HOME. */
const PARTS = { home: 'home', ws: 'ws', homeWs: 'home-ws' } as const;

/** The user's dotfiles and tole's config, as every world's home holds them. */
function writeHome(home: string): void {
  mkdirSync(join(home, '.config', 'tole'), { recursive: true });
  writeFileSync(join(home, '.bashrc'), BASHRC);
  writeFileSync(
    join(home, '.gitconfig'),
    '[user]\n\tname = User\n\temail = user@example.com\n[init]\n\tdefaultBranch = main\n',
  );
  writeFileSync(
    join(home, '.config', 'tole', 'config.json'),
    JSON.stringify({
      limits: { maxSteps: 1000, nudgeAfterFailingRounds: 1000, abortAfterFailingRounds: 1000, stallRounds: 1000 },
      // The world's fake programs (its bin/, beside the home) stay in sight of confined commands
      // when the worlds themselves live in the user's home, which the sandbox hides.
      sandbox: { readable: ['~/../bin'] },
    }),
  );
}

/** The repository: two files, everything in the folder committed once by the user. */
function writeRepository(ws: string, home: string): void {
  writeFileSync(join(ws, 'README.md'), 'a repository\n');
  writeFileSync(join(ws, 'data.txt'), 'one\ntwo\n');
  setupGit(ws, home, 'init', '-q');
  setupGit(ws, home, 'add', '-A');
  // No automatic maintenance: what it packs or writes later would change the template under its fingerprint.
  setupGit(ws, home, '-c', 'maintenance.auto=false', '-c', 'gc.auto=0', 'commit', '-qm', 'first');
}

/**
 * Makes a template under `parent`: home/ (the dotfiles), ws/ (the repository), and home-ws/ for a
 * workspace at $HOME (the dotfiles and the repository in one folder, the dotfiles committed too).
 */
export function makeWorldTemplate(parent: string = WORLDS_DIR): WorldTemplate {
  mkdirSync(parent, { recursive: true });
  const dir = realpathSync(mkdtempSync(join(parent, 'template-')));
  const [home, ws, homeWs] = ['home', 'ws', 'home-ws'].map((name) => join(dir, name)) as [string, string, string];
  writeHome(home);
  mkdirSync(ws);
  writeRepository(ws, home);
  writeHome(homeWs);
  writeRepository(homeWs, homeWs);
  const made = { home: fingerprint(home), ws: fingerprint(ws), homeWs: fingerprint(homeWs) };
  return {
    dir,
    ...made,
    verify: () => {
      const changed = (['home', 'ws', 'homeWs'] as const).flatMap((part) =>
        fingerprintDiff(made[part], fingerprint(join(dir, PARTS[part]))).map((line) => `${PARTS[part]}/ ${line}`),
      );
      if (changed.length > 0)
        throw new Error(
          `the world template ${dir} changed after it was made (a call of another world reached it?): ` +
            `${changed.join('; ')}. Every world copied from it now would start unclean; find the case that wrote there.`,
        );
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

let shared: WorldTemplate | null = null;

/** This process's template, made on first use, removed when the process ends; verified on every call. */
export function worldTemplate(): WorldTemplate {
  if (shared === null) {
    const made = makeWorldTemplate();
    shared = made;
    process.once('exit', () => made.remove());
  }
  shared.verify();
  return shared;
}

/** Copies the template's home and workspace into place (`ws` may be `home`: the workspace at $HOME). */
export function copyTemplate(template: WorldTemplate, home: string, ws: string): void {
  const copy = (part: string, to: string) =>
    cpSync(join(template.dir, part), to, { recursive: true, preserveTimestamps: true });
  if (ws === home) copy(PARTS.homeWs, home);
  else {
    copy(PARTS.home, home);
    copy(PARTS.ws, ws);
  }
  // The copied index describes the template's files (their inodes, their change times): refreshed,
  // it describes these, as the index of a repository made here would.
  setupGit(ws, home, 'update-index', '-q', '--refresh');
}
