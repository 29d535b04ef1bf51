import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Checkpoints, RestoreIncomplete } from '../../../src/core/checkpoints/checkpoint-store';
import { tempDirs, type TempDirs } from '../../support/agent-fixtures';
import { childScript } from '../../support/test-children';
import { inCheckpoints } from '../../support/checkpoint-reads';

/** Several toles on one workspace share its checkpoint directory: each is a Checkpoints of its own. */
let dirs: TempDirs;
beforeEach(() => {
  dirs = tempDirs('tole-checkpoint-cas-');
});
afterEach(() => dirs.remove());

function tole(root = dirs.root): Checkpoints {
  return Checkpoints.create({ home: dirs.home, workspaceRoot: root });
}

async function take(checkpoints: Checkpoints): Promise<string> {
  const taken = await checkpoints.take();
  if (!taken.ok) throw new Error(`checkpoint failed: ${taken.reason}`);
  return taken.id;
}

function reachable(checkpoints: Checkpoints): Set<string> {
  return new Set(inCheckpoints(checkpoints, 'rev-list', 'refs/tole/checkpoints').trim().split('\n'));
}

describe('checkpoints with several toles on one workspace', () => {
  it('stay on when another tole moved the ref in between, and every checkpoint stays on the chain', async () => {
    const [a, b] = [tole(), tole()];
    const ids: string[] = [];
    for (const [i, who] of [a, b, a, b, a, a, b].entries()) {
      writeFileSync(join(dirs.root, 'file.txt'), `version ${i}\n`);
      ids.push(await take(who));
    }
    const chain = reachable(a);
    for (const id of ids) expect(chain.has(id)).toBe(true);
    // The newest is the ref's head: each checkpoint's parent is the one taken just before it.
    expect(inCheckpoints(a, 'rev-parse', 'refs/tole/checkpoints').trim()).toBe(ids.at(-1));
    expect(inCheckpoints(a, 'rev-parse', `${ids[2]}^1`).trim()).toBe(ids[1]);
  });

  it('three toles taking checkpoints at the same moment all succeed', async () => {
    const toles = [tole(), tole(), tole()];
    const ids: string[] = [];
    for (let round = 0; round < 4; round++) {
      writeFileSync(join(dirs.root, `round-${round}.txt`), `${round}\n`);
      ids.push(...(await Promise.all(toles.map(take))));
    }
    const chain = reachable(toles[0]!);
    for (const id of ids) expect(chain.has(id)).toBe(true);
  });

  it("go on from a ref moved back, keeping this tole's newer checkpoints reachable", async () => {
    const a = tole();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      writeFileSync(join(dirs.root, 'file.txt'), `version ${i}\n`);
      ids.push(await take(a));
    }
    inCheckpoints(a, 'update-ref', 'refs/tole/checkpoints', ids[0]!);
    writeFileSync(join(dirs.root, 'file.txt'), 'after the move\n');
    const next = await take(a);
    const chain = reachable(a);
    for (const id of [...ids, next]) expect(chain.has(id)).toBe(true);
    expect(inCheckpoints(a, 'rev-parse', `${next}^1`).trim()).toBe(ids[0]);
  });

  it('work on a packed ref', async () => {
    const [a, b] = [tole(), tole()];
    await take(a);
    inCheckpoints(a, 'pack-refs', '--all');
    expect(existsSync(join(a.directory, 'refs', 'tole', 'checkpoints'))).toBe(false);
    writeFileSync(join(dirs.root, 'file.txt'), 'packed\n');
    const id = await take(b);
    writeFileSync(join(dirs.root, 'file.txt'), 'packed again\n');
    const again = await take(a);
    expect(inCheckpoints(a, 'rev-parse', `${again}^1`).trim()).toBe(id);
  });
});

describe('a restore checks what it produced', () => {
  it('says which file still differs when the workspace does not match the checkpoint afterwards', async () => {
    const a = tole();
    writeFileSync(join(dirs.root, 'keep.txt'), 'keep\n');
    const id = await take(a);
    writeFileSync(join(dirs.root, 'e_9.txt'), 'made after the checkpoint\n');
    // Another process writes the file again while the restore runs.
    const restoring = a.restore(id, () => writeFileSync(join(dirs.root, 'e_9.txt'), 'written again\n'));
    await expect(restoring).rejects.toThrow(RestoreIncomplete);
    await expect(a.restore(id, () => writeFileSync(join(dirs.root, 'e_9.txt'), 'again\n'))).rejects.toThrow(
      /still there: e_9\.txt/,
    );
    // Restored again with nobody racing it, the restore takes.
    await a.restore(id);
    expect(existsSync(join(dirs.root, 'e_9.txt'))).toBe(false);
  });

  it('removes files when the workspace is named through a symlink', async () => {
    const link = join(dirs.parent, 'workspace-link');
    symlinkSync(dirs.root, link);
    const a = tole(link);
    writeFileSync(join(dirs.root, 'keep.txt'), 'keep\n');
    const id = await take(a);
    writeFileSync(join(dirs.root, 'new.txt'), 'new\n');
    rmSync(join(dirs.root, 'keep.txt'));
    const plan = await a.restore(id);
    expect(plan).toMatchObject({ removed: ['new.txt'], added: ['keep.txt'] });
    expect(existsSync(join(dirs.root, 'new.txt'))).toBe(false);
    expect(readFileSync(join(dirs.root, 'keep.txt'), 'utf8')).toBe('keep\n');
  });
});

describe('a read-only checkpoint directory', () => {
  it('turns checkpoints off with a reason that says what to do, once, and leaves the directory as it was', async () => {
    const a = tole();
    writeFileSync(join(dirs.root, 'a.txt'), 'a\n');
    const first = await take(a);
    // The directory mounted read-only in a mount namespace of the child's own (root may write anything otherwise).
    const script = `mount --bind -o ro '${dirs.home}' '${dirs.home}' && exec '${process.execPath}' '${childScript('checkpoint-twice')}' '${dirs.home}' '${dirs.root}'`;
    const run = spawnSync('unshare', ['-m', 'sh', '-c', script], { encoding: 'utf8' });
    if (run.status !== 0 && run.stdout === '') {
      console.log(`skipped: a read-only bind mount could not be made here (${run.stderr.trim()})`);
      return;
    }
    const [one, two] = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(one).toMatchObject({ ok: false, firstReport: true });
    expect(String(one?.['reason'])).toContain(`tole's checkpoint directory ${a.directory} cannot be written`);
    expect(String(one?.['reason'])).toContain('set TOLE_HOME to a writable folder');
    expect(two).toMatchObject({ ok: false, firstReport: false });
    expect(inCheckpoints(a, 'rev-parse', 'refs/tole/checkpoints').trim()).toBe(first);
  });
});
