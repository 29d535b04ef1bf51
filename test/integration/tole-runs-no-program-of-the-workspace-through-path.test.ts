/**
 * The built tole, started with a PATH that leads into the workspace (an empty entry, `.`, a
 * relative folder, an absolute folder inside it), runs none of the workspace's programs of the
 * names it starts itself: `bash` for the user's hooks and prompt commands, `git` for checkpoints
 * and its git checks, `setpriv`, `bwrap`, `rg`. Every name is planted in each such folder; a
 * planted program writes its name to a file outside the workspace, then runs the real one, so that
 * tole works either way and only the file tells. The bash tool's own PATH is tested in
 * test/core/tools/commands-find-no-program-in-the-workspace-through-path.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileChatServer } from '../support/file-chat-server';
import { tempDirs } from '../support/agent-fixtures';
import { runBuiltTole } from '../support/built-tole';

const PLANTED_NAMES = ['bash', 'sh', 'git', 'setpriv', 'bwrap', 'rg', 'watchman', 'env', 'node', 'npx', 'cat', 'tr'];
const USER_PATH = '/usr/local/bin:/usr/bin:/bin';

const chat = fileChatServer({ defaultReply: { text: 'done' } }, { built: true });

/** Every name of PLANTED_NAMES in `dir`: writes `name` to `marker`, then runs the real program. */
function plant(dir: string, marker: string): void {
  mkdirSync(dir, { recursive: true });
  for (const name of PLANTED_NAMES) {
    const file = join(dir, name);
    writeFileSync(file, `#!/bin/sh\necho "${name} from ${dir}" >> '${marker}'\nPATH=${USER_PATH}\nexec ${name} "$@"\n`);
    chmodSync(file, 0o755);
  }
}

interface Shape {
  readonly name: string;
  /** The PATH given to tole, from the workspace's path. */
  readonly path: (root: string, outside: string) => string;
}

const SHAPES: readonly Shape[] = [
  { name: 'an empty entry first', path: () => `:${USER_PATH}` },
  { name: 'an empty entry in the middle', path: () => `/usr/local/bin::/usr/bin:/bin` },
  { name: '. first', path: () => `.:${USER_PATH}` },
  { name: './ first', path: () => `./:${USER_PATH}` },
  { name: 'a relative folder first', path: () => `bin:${USER_PATH}` },
  { name: 'node_modules/.bin first', path: () => `node_modules/.bin:${USER_PATH}` },
  { name: 'an absolute folder inside the workspace first', path: (root) => `${root}/tools:${USER_PATH}` },
  { name: 'the workspace itself first', path: (root) => `${root}:${USER_PATH}` },
  { name: 'the workspace with a trailing slash', path: (root) => `${root}/:${USER_PATH}` },
  {
    name: 'a link outside that leads into the workspace',
    path: (_, outside) => `${outside}/ws-link/tools:${USER_PATH}`,
  },
  { name: 'the last entry empty', path: () => `${USER_PATH}:` },
];

/**
 * A repository with the planted programs in its root, bin, node_modules/.bin and tools, a link
 * outside leading to it (ws-link), the user's own config with a hook and a prompt command (both run
 * unconfined), and the chat server's turn: one bash call that lists and runs git, then done.
 */
function plantedRepository(prefix: string): { d: ReturnType<typeof tempDirs>; marker: string } {
  const d = tempDirs(prefix);
  const marker = join(d.outside, 'planted-ran.txt');
  for (const dir of ['.', 'bin', 'node_modules/.bin', 'tools']) plant(join(d.root, dir), marker);
  symlinkSync(d.root, join(d.outside, 'ws-link'));
  // A repository, so that tole's git checks and checkpoints run git in it.
  writeFileSync(join(d.root, 'README.md'), 'hello\n');
  execFileSync('/usr/bin/git', ['init', '-q'], { cwd: d.root, env: { PATH: USER_PATH } });
  const userDir = join(d.parent, '.config', 'tole');
  mkdirSync(userDir, { recursive: true });
  writeFileSync(
    join(userDir, 'config.json'),
    JSON.stringify({
      hooks: { sessionStart: `echo hook-ran > '${join(d.outside, 'hook.txt')}'` },
      systemPrompt: ['echo from-a-prompt-command'],
    }),
  );
  chat.server.push(
    { toolCalls: [{ id: 'call_ls', name: 'bash', arguments: JSON.stringify({ command: 'ls; git status' }) }] },
    { text: 'done' },
  );
  return { d, marker };
}

describe('tole starts none of the workspace programs a PATH leads to', () => {
  for (const shape of SHAPES) {
    it(`${shape.name}: hooks, prompt commands, checkpoints and the bash tool run the real programs`, async () => {
      const { d, marker } = plantedRepository('tole-path-plant-');
      const run = await runBuiltTole(['-p', 'list the files', '--yes', '--base-url', chat.server.url, '--model', 'm'], {
        cwd: d.root,
        env: {
          PATH: shape.path(d.root, d.outside),
          HOME: d.parent,
          TOLE_HOME: d.home,
          LANG: 'C.UTF-8',
          OPENAI_API_KEY: 'sk-test',
        },
      });
      expect(run.code, run.stderr).toBe(0);
      // The hook ran (through the real bash), so its absence from the marker means something.
      expect(readFileSync(join(d.outside, 'hook.txt'), 'utf8')).toBe('hook-ran\n');
      expect(existsSync(marker) ? readFileSync(marker, 'utf8') : '').toBe('');
    });
  }
});

describe("a hook's bash reads no startup file", () => {
  // bash -c reads ~/.bashrc when its stdin is a socket (a hook's payload comes on one) and SHLVL
  // is not set (tole started by a launcher, cron, a service): a .bashrc that puts `.` or
  // `node_modules/.bin` first, as many do, put the repository's programs back before tole's git.
  it('a .bashrc that puts . first changes nothing a hook or a prompt command runs', async () => {
    const d = tempDirs('tole-path-bashrc-');
    const marker = join(d.outside, 'planted-ran.txt');
    plant(d.root, marker);
    execFileSync('/usr/bin/git', ['init', '-q'], { cwd: d.root, env: { PATH: USER_PATH } });
    writeFileSync(join(d.parent, '.bashrc'), `echo bashrc-read >> '${marker}'\nexport PATH=.:$PATH\n`);
    const userDir = join(d.parent, '.config', 'tole');
    mkdirSync(userDir, { recursive: true });
    writeFileSync(
      join(userDir, 'config.json'),
      JSON.stringify({
        hooks: { sessionStart: `git --version > '${join(d.outside, 'hook.txt')}'` },
        systemPrompt: ['git --version >/dev/null; echo from-a-prompt-command'],
      }),
    );
    const run = await runBuiltTole(['-p', 'hello', '--base-url', chat.server.url, '--model', 'm'], {
      cwd: d.root,
      env: { PATH: USER_PATH, HOME: d.parent, TOLE_HOME: d.home, LANG: 'C.UTF-8', OPENAI_API_KEY: 'sk-test' },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(readFileSync(join(d.outside, 'hook.txt'), 'utf8')).toMatch(/^git version/);
    expect(existsSync(marker) ? readFileSync(marker, 'utf8') : '').toBe('');
  });
});

describe('started in a sub-folder, tole starts none of the programs of the repository above', () => {
  // `cd repo/sub && tole`: the start folder is repo/sub, but the repository (its files written by
  // whoever wrote the clone, and by confined commands) is repo; an entry into repo is the same hole.
  const SUB_SHAPES: readonly Shape[] = [
    { name: 'the repository root’s tools folder', path: (root) => `${root}/tools:${USER_PATH}` },
    { name: 'the repository root itself', path: (root) => `${root}:${USER_PATH}` },
    { name: 'the repository’s node_modules/.bin', path: (root) => `${root}/node_modules/.bin:${USER_PATH}` },
    { name: 'a relative ../bin', path: () => `../bin:${USER_PATH}` },
    {
      name: 'a link outside that leads to the repository',
      path: (_, outside) => `${outside}/ws-link/tools:${USER_PATH}`,
    },
    { name: 'a way through the start folder and ..', path: (root) => `${root}/sub/deep/../../tools:${USER_PATH}` },
    {
      name: 'a link outside into the start folder, then ..',
      path: (_, outside) => `${outside}/sub-link/../../tools:${USER_PATH}`,
    },
  ];
  for (const shape of SUB_SHAPES) {
    it(`${shape.name}: the hook's bash and the checkpoints' git are the real ones`, async () => {
      const { d, marker } = plantedRepository('tole-path-sub-');
      const start = join(d.root, 'sub', 'deep');
      mkdirSync(start, { recursive: true });
      symlinkSync(join(d.root, 'sub', 'deep'), join(d.outside, 'sub-link'));
      const run = await runBuiltTole(['-p', 'list the files', '--yes', '--base-url', chat.server.url, '--model', 'm'], {
        cwd: start,
        env: {
          PATH: shape.path(d.root, d.outside),
          HOME: d.parent,
          TOLE_HOME: d.home,
          LANG: 'C.UTF-8',
          OPENAI_API_KEY: 'sk-test',
        },
      });
      expect(run.code, run.stderr).toBe(0);
      expect(readFileSync(join(d.outside, 'hook.txt'), 'utf8')).toBe('hook-ran\n');
      expect(existsSync(marker) ? readFileSync(marker, 'utf8') : '').toBe('');
    });
  }
});
