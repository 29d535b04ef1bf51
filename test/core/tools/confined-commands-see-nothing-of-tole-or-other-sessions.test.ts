/**
 * A confined command (real bubblewrap) reads nothing of tole's own: its home (the index key, every
 * project's sessions, the checkpoints), the user's tole config folder (config and trust store), or
 * the folder every tole makes its session temp directories in, even where the workspace holds one
 * of them (a workspace at $HOME holds ~/.tole; a TMPDIR set inside the project holds other toles'
 * temp directories). The paths come from hiddenFromCommands, as tole's wiring builds them.
 * Before the sandbox hid them, every case below but the last two read the secret (`cat .tole/index.key` is ReadOnly
 * and runs without a key). Also tried, and held: what a command inherits (descriptors, the
 * terminal, other processes' environments) and ways around the hiding mount.
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hiddenFromCommands } from '../../../src/cli/hidden-from-commands';
import { detectSandbox } from '../../../src/core/tools/sandbox';
import { sandboxedBash, type TempWorkspace, tempWorkspace } from './temp-workspace';

const sandbox = detectSandbox(process.platform, process.env['PATH']);
if (!sandbox) console.log('skipping: no working bwrap here');

const SECRET = 'tole-secret-3f1c9';

function plant(file: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${SECRET}\n`);
}

/** A workspace that is the user's home: ~/.tole and ~/.config/tole lie inside it. */
async function homeWorkspace(): Promise<{ ws: TempWorkspace; hidden: string[] }> {
  const ws = await tempWorkspace();
  plant(path.join(ws.root, '.tole', 'index.key'));
  plant(path.join(ws.root, '.tole', 'sessions', 'other-project.jsonl'));
  plant(path.join(ws.root, '.tole', 'checkpoints', 'x', 'HEAD'));
  plant(path.join(ws.root, '.config', 'tole', 'config.json'));
  plant(path.join(ws.root, '.config', 'tole', 'trusted-folders.json'));
  writeFileSync(path.join(ws.root, 'README.md'), 'project file\n');
  const hidden = hiddenFromCommands({ HOME: ws.root }, undefined, ws.outside);
  return { ws, hidden };
}

async function run(bash: ReturnType<typeof sandboxedBash>['bash'], ws: TempWorkspace, command: string) {
  return bash.execute({ command }, ws.ctx);
}

describe.skipIf(!sandbox)('a confined command sees nothing of tole', () => {
  it('hiddenFromCommands names tole home, the config folder, a moved sessions folder and the temp parent', async () => {
    const { ws } = await homeWorkspace();
    const hidden = hiddenFromCommands({ HOME: ws.root }, path.join(ws.outside, 'elsewhere'), ws.outside);
    expect(hidden).toEqual([
      path.join(ws.root, '.tole'),
      path.join(ws.outside, 'elsewhere'),
      path.join(ws.root, '.config', 'tole'),
      ws.outside,
    ]);
    expect(hiddenFromCommands({ HOME: '/h', TOLE_HOME: '/th', XDG_CONFIG_HOME: '/x' }, undefined, '/t')).toEqual([
      '/th',
      '/th/sessions',
      '/x/tole',
      '/t',
    ]);
  });

  it.each([
    ['cat .tole/index.key'],
    ['cat .tole/sessions/other-project.jsonl'],
    ['cat .tole/checkpoints/x/HEAD'],
    ['cat .config/tole/config.json'],
    ['cat .config/tole/trusted-folders.json'],
    ['cat "$PWD/.tole/index.key"'],
    ['grep -r . .tole .config/tole'],
    ['cat ./.tole/../.tole/index.key'],
    ['cat /proc/self/root"$PWD"/.tole/index.key'],
    ['cat /proc/1/root"$PWD"/.tole/index.key'],
    ['ln -s .tole t && cat t/index.key'],
    ['ln -s "$PWD/.config" c && cat c/tole/config.json'],
    ['cp -r .tole /tmp/copy && cat /tmp/copy/index.key'],
    ['tar cf - .tole | tar xOf -'],
    ['umount .tole; cat .tole/index.key'],
    ['umount -l .tole; cat .tole/index.key'],
    ['unshare -rm sh -c "umount .tole; cat .tole/index.key"'],
    ['mv .tole .t2; cat .t2/index.key'],
  ])('in a workspace at $HOME: %s reads none of it', async (command) => {
    const { ws, hidden } = await homeWorkspace();
    const { bash } = sandboxedBash(ws, sandbox!, { hidden });
    const out = await run(bash, ws, command);
    expect(out.content).not.toContain(SECRET);
    // The files are still there for tole, untouched.
    expect(readFileSync(path.join(ws.root, '.tole', 'index.key'), 'utf8')).toBe(`${SECRET}\n`);
  });

  it('the rest of the workspace is read and written as before, and what is written in a hidden folder stays in the sandbox', async () => {
    const { ws, hidden } = await homeWorkspace();
    const { bash } = sandboxedBash(ws, sandbox!, { hidden });
    const out = await run(
      bash,
      ws,
      'cat README.md && echo made > made.txt && ls -A .tole; echo x > .tole/planted; echo done',
    );
    expect(out.content).toContain('project file');
    expect(out.content).toContain('done');
    expect(readFileSync(path.join(ws.root, 'made.txt'), 'utf8')).toBe('made\n');
    expect(() => readFileSync(path.join(ws.root, '.tole', 'planted'))).toThrow();
  });

  it('a TMPDIR inside the project: other toles’ session temp directories are out of sight, its own /tmp is not', async () => {
    const ws = await tempWorkspace();
    const parent = path.join(ws.root, '.tmp');
    plant(path.join(parent, 'tole-session-other', 'secret.txt'));
    plant(path.join(parent, 'tole-git-other', 'git'));
    const { bash, tempDir } = sandboxedBash(ws, sandbox!, {
      hidden: hiddenFromCommands({ HOME: ws.outside }, undefined, parent),
    });
    const out = await run(bash, ws, 'cat .tmp/*/*; ls -A .tmp; echo own > /tmp/own.txt; cat /tmp/own.txt');
    expect(out.content).not.toContain(SECRET);
    expect(out.content).toContain('own');
    expect(readFileSync(path.join(tempDir, 'own.txt'), 'utf8')).toBe('own\n');
  });

  it('a workspace inside tole home stays in sight; the sessions beside it do not', async () => {
    const ws = await tempWorkspace();
    // tole home is the workspace's parent folder here: ws.root lies inside it.
    const home = path.dirname(ws.root);
    plant(path.join(home, 'index.key'));
    writeFileSync(path.join(ws.root, 'README.md'), 'project file\n');
    const { bash } = sandboxedBash(ws, sandbox!, { hidden: [home] });
    const out = await run(bash, ws, 'cat ../index.key; cat README.md; echo w > w.txt && echo wrote');
    expect(out.content).not.toContain(SECRET);
    expect(out.content).toContain('project file');
    expect(out.content).toContain('wrote');
  });

  it('a hidden file (not a folder) cannot be read or written', async () => {
    const ws = await tempWorkspace();
    const file = path.join(ws.root, 'key.file');
    plant(file);
    const { bash } = sandboxedBash(ws, sandbox!, { hidden: [file] });
    const out = await run(bash, ws, 'cat key.file; echo x > key.file; cp key.file copy && cat copy');
    expect(out.content).not.toContain(SECRET);
    expect(readFileSync(file, 'utf8')).toBe(`${SECRET}\n`);
  });

  it('a hidden path given through a link is hidden at the place the link leads to', async () => {
    const { ws } = await homeWorkspace();
    const link = path.join(ws.root, 'home-link');
    symlinkSync(ws.root, link);
    const { bash } = sandboxedBash(ws, sandbox!, {
      hidden: hiddenFromCommands({ TOLE_HOME: path.join(link, '.tole'), HOME: ws.outside }, undefined, ws.outside),
    });
    const out = await run(bash, ws, 'cat .tole/index.key home-link/.tole/index.key');
    expect(out.content).not.toContain(SECRET);
  });

  it('inherits no descriptor but its stdio, no terminal, and sees no process of the host', async () => {
    const ws = await tempWorkspace();
    const { bash } = sandboxedBash(ws, sandbox!);
    const fds = await run(bash, ws, 'ls /proc/self/fd | sort -n | tr "\\n" " "');
    // 0-2, and 3 for the listing itself (ls's own descriptor of the folder).
    expect(
      fds.content
        .trim()
        .split('\n')[0]!
        .trim()
        .split(' ')
        .map(Number)
        .filter((fd) => fd > 3),
    ).toEqual([]);
    const tty = await run(bash, ws, 'echo hi > /dev/tty && echo reached');
    expect(tty.content).not.toContain('reached');
    const pts = await run(
      bash,
      ws,
      'ls /dev/pts; for p in /dev/pts/[0-9]*; do echo x > "$p" && echo "wrote $p"; done; true',
    );
    expect(pts.content).not.toContain('wrote');
    const procs = await run(bash, ws, 'ls /proc | grep -c "^[0-9]"');
    expect(Number(procs.content.trim().split('\n')[0])).toBeLessThan(8);
    const init = await run(bash, ws, 'tr "\\0" "\\n" < /proc/1/environ');
    expect(init.content).not.toContain('HOME=');
  });
});
