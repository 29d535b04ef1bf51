/**
 * Between the known-path checkpoint's look at a named file (lstat) and the read of its bytes,
 * another process (a command the model started) may put a symlink in the file's place, or in the
 * place of a folder on its way, pointing at a file outside the workspace. That file's bytes must
 * never be stored as the workspace path: the file is opened without following a symlink, kept
 * only if it is the one seen and the kernel names it by the workspace path, and its bytes are read
 * from that open file, not the path. A file it cannot vouch for makes the checkpoint a scan, which
 * stores a symlink as a symlink.
 */
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  closeSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Checkpoints } from '../../../src/core/checkpoints/checkpoint-store';
import { openAsSeen } from '../../../src/core/checkpoints/open-as-seen';
import { afterTheTest, tempDirForTest } from '../../support/after-the-test';
import { fileInCheckpoint, inCheckpoints } from '../../support/checkpoint-reads';

const SECRET = 'a key from outside the workspace\n';

function places(): { root: string; outside: string; home: string } {
  const parent = tempDirForTest('tole-swap-');
  const [root, outside, home] = ['root', 'outside', 'home'].map((name) => join(parent, name));
  for (const dir of [root!, outside!, home!]) mkdirSync(dir);
  writeFileSync(join(outside!, 'f.txt'), SECRET);
  return { root: root!, outside: outside!, home: home! };
}

/**
 * A git on the path that runs `action` in the shell the first time a check-ignore git starts after
 * `arm()`, before that git reads anything; otherwise it is the real git. A known-path checkpoint
 * asks check-ignore of a named file after its look and before it reads the file.
 */
function gitActingAtCheckIgnore(home: string, action: string): { binary: string; arm(): void } {
  const realGit = spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim();
  const flag = join(home, 'act-once');
  const binary = join(home, 'git');
  writeFileSync(
    binary,
    `#!/bin/sh
case " $* " in *" check-ignore "*) if [ -e '${flag}' ]; then rm '${flag}'
  ${action}; fi;; esac
exec '${realGit}' "$@"
`,
  );
  chmodSync(binary, 0o755);
  return { binary, arm: () => writeFileSync(flag, '') };
}

describe('a file opened as seen', () => {
  it('is the file the look saw, its bytes read from the descriptor', () => {
    const { root } = places();
    writeFileSync(join(root, 'f.txt'), 'mine\n');
    const fd = openAsSeen(root, Buffer.from('f.txt'), lstatSync(join(root, 'f.txt')))!;
    expect(fd).not.toBeNull();
    expect(readFileSync(fd, 'utf8')).toBe('mine\n');
    closeSync(fd);
  });

  it('is refused when a symlink to an outside file took its place after the look', () => {
    const { root, outside } = places();
    writeFileSync(join(root, 'f.txt'), 'mine\n');
    const seen = lstatSync(join(root, 'f.txt'));
    rmSync(join(root, 'f.txt'));
    symlinkSync(join(outside, 'f.txt'), join(root, 'f.txt'));
    expect(openAsSeen(root, Buffer.from('f.txt'), seen)).toBeNull();
  });

  it('is refused when a folder on its way became a symlink to an outside folder, even if the look went through it', () => {
    const { root, outside } = places();
    mkdirSync(join(root, 'd'));
    writeFileSync(join(root, 'd', 'f.txt'), 'mine\n');
    const before = lstatSync(join(root, 'd', 'f.txt'));
    renameSync(join(root, 'd'), join(root, 'd-moved'));
    symlinkSync(outside, join(root, 'd'));
    const path = Buffer.from('d/f.txt');
    expect(openAsSeen(root, path, before)).toBeNull();
    // A look after the swap went through the symlink: it saw the outside file itself.
    expect(openAsSeen(root, path, lstatSync(join(root, 'd', 'f.txt')))).toBeNull();
  });

  it('is refused, without blocking, when a FIFO took its place', () => {
    const { root } = places();
    writeFileSync(join(root, 'f.txt'), 'mine\n');
    const seen = lstatSync(join(root, 'f.txt'));
    rmSync(join(root, 'f.txt'));
    expect(spawnSync('mkfifo', [join(root, 'f.txt')]).status).toBe(0);
    expect(openAsSeen(root, Buffer.from('f.txt'), seen)).toBeNull();
  });
});

describe('a known-path checkpoint', () => {
  it('never holds the outside file when a symlink to it is swapped in between the look and the read', async () => {
    const { root, outside, home } = places();
    // The first check-ignore git swaps the named file for a symlink before it answers.
    const { binary, arm } = gitActingAtCheckIgnore(
      home,
      `rm '${root}/f.txt'; ln -s '${outside}/f.txt' '${root}/f.txt'`,
    );
    const checkpoints = Checkpoints.create({ home, workspaceRoot: root, gitBinary: binary });
    afterTheTest(() => checkpoints.close());
    writeFileSync(join(root, 'other.txt'), 'other\n');
    expect((await checkpoints.take()).ok).toBe(true);

    writeFileSync(join(root, 'f.txt'), 'written by tole\n');
    checkpoints.noteChanges(['f.txt']);
    arm();
    const taken = await checkpoints.take('known-paths');
    if (!taken.ok) throw new Error(taken.reason);
    expect(lstatSync(join(root, 'f.txt')).isSymbolicLink()).toBe(true);
    // Not vouched for: the scan stores the symlink as a symlink (its target's name), as git would.
    expect(inCheckpoints(checkpoints, 'ls-tree', taken.id, 'f.txt')).toMatch(/^120000 blob /);
    expect(fileInCheckpoint(checkpoints.directory, taken.id, 'f.txt')).toBe(`${outside}/f.txt`);
  });

  it('leaves out a file that grew past the size limit between the look and the read, as a scan would', async () => {
    const { root, home } = places();
    // The first check-ignore git makes the named file grow past the limit before it answers.
    const { binary, arm } = gitActingAtCheckIgnore(home, `head -c 4096 /dev/zero >> '${root}/f.txt'`);
    const checkpoints = Checkpoints.create({ home, workspaceRoot: root, gitBinary: binary, maxFileBytes: 1024 });
    afterTheTest(() => checkpoints.close());
    writeFileSync(join(root, 'other.txt'), 'other\n');
    expect((await checkpoints.take()).ok).toBe(true);

    writeFileSync(join(root, 'f.txt'), 'written by tole\n');
    checkpoints.noteChanges(['f.txt']);
    arm();
    const taken = await checkpoints.take('known-paths');
    if (!taken.ok) throw new Error(taken.reason);
    expect(lstatSync(join(root, 'f.txt')).size).toBeGreaterThan(4096);
    expect(fileInCheckpoint(checkpoints.directory, taken.id, 'f.txt').length).toBe(0);
    expect(taken.leftOut).toContainEqual(expect.objectContaining({ path: 'f.txt', why: 'too-large' }));
  });

  it("stores a file under git's end-of-line attributes as a scan does, and a file under none as it is", async () => {
    const { root, home } = places();
    mkdirSync(join(root, 'sub'));
    writeFileSync(join(root, 'sub', '.gitattributes'), '*.txt text=auto\n');
    const checkpoints = Checkpoints.create({ home, workspaceRoot: root });
    afterTheTest(() => checkpoints.close());
    expect((await checkpoints.take()).ok).toBe(true);

    const crlf = 'one\r\ntwo\r\n';
    for (const path of ['sub/crlf.txt', 'sub/plain.bin', 'top.txt']) writeFileSync(join(root, path), crlf);
    checkpoints.noteChanges(['sub/crlf.txt', 'sub/plain.bin', 'top.txt']);
    const known = await checkpoints.take('known-paths');
    if (!known.ok) throw new Error(known.reason);
    const scan = await checkpoints.take('scan');
    if (!scan.ok) throw new Error(scan.reason);
    for (const checkpoint of [known.id, scan.id]) {
      expect(fileInCheckpoint(checkpoints.directory, checkpoint, 'sub/crlf.txt')).toBe('one\ntwo\n');
      expect(fileInCheckpoint(checkpoints.directory, checkpoint, 'sub/plain.bin')).toBe(crlf);
      expect(fileInCheckpoint(checkpoints.directory, checkpoint, 'top.txt')).toBe(crlf);
    }
  });
});
