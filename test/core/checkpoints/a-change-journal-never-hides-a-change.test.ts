/**
 * A scan with watchman's change journal (git looks only at the paths watchman names) checkpoints
 * the same tree as a scan that looks at every file, whatever happens to the workspace: changes
 * between and during checkpoints by another process, renames, deletes, a folder made a symlink,
 * ignored folders, rule files, nested repositories; and whenever the journal cannot vouch (watchman
 * stopped mid-session, its state directory removed, a clock of another watch or of another
 * watchman, an index another tole published) the scan looks at every file. Each test starts a
 * watchman of its own (test/support/own-watchman.ts) and stops it.
 */
import { spawn } from 'node:child_process';
import { appendFileSync, chmodSync, mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WatchmanJournal } from '../../../src/core/checkpoints/change-journal';
import { Checkpoints } from '../../../src/core/checkpoints/checkpoint-store';
import { afterTheTest, tempDirForTest } from '../../support/after-the-test';
import { inCheckpoints } from '../../support/checkpoint-reads';
import { ownWatchman, WATCHMAN_MISSING } from '../../support/own-watchman';

if (WATCHMAN_MISSING !== null) console.log(`skipped: ${WATCHMAN_MISSING}`);

function world() {
  const dir = tempDirForTest('tole-journal-');
  const root = join(dir, 'workspace');
  mkdirSync(join(root, 'src', 'deep'), { recursive: true });
  for (let i = 0; i < 20; i++) writeFileSync(join(root, 'src', `f${i}.ts`), `export const v = ${i};\n`);
  writeFileSync(join(root, 'src', 'deep', 'a.ts'), 'a\n');
  mkdirSync(join(dir, 'wm'));
  const watchman = ownWatchman(join(dir, 'wm'));
  const journal = new WatchmanJournal(root, { env: { PATH: process.env['PATH'] }, sockname: watchman.sockname });
  const make = (home: string, withJournal: boolean): Checkpoints => {
    const made = Checkpoints.create({
      home: join(dir, home),
      workspaceRoot: root,
      journal: withJournal ? journal : null,
    });
    afterTheTest(() => made.close());
    return made;
  };
  return {
    dir,
    root,
    watchman,
    journal,
    journaled: make('home-journal', true),
    plain: make('home-plain', false),
    make,
  };
}

async function tree(checkpoints: Checkpoints): Promise<string> {
  const taken = await checkpoints.take('scan');
  if (!taken.ok) throw new Error(taken.reason);
  return inCheckpoints(checkpoints, 'rev-parse', `${taken.id}^{tree}`).trim();
}

/** Both checkpoints of the workspace as it is now hold the same tree; returns why the journaled one was not vouched. */
async function same(journaled: Checkpoints, plain: Checkpoints): Promise<string | null> {
  const [a, b] = [await tree(journaled), await tree(plain)];
  expect(a).toBe(b);
  return journaled.lastUnvouched;
}

describe.skipIf(WATCHMAN_MISSING !== null)('a scan with the change journal', () => {
  it('checkpoints what a full scan does through every kind of change, looking only where watchman points', async () => {
    const { root, journaled, plain } = world();
    expect(await same(journaled, plain)).toBe('no clock to ask from');
    const changes: [string, () => void][] = [
      ['a file changed', () => appendFileSync(join(root, 'src', 'f1.ts'), 'more\n')],
      [
        'a file in a new folder',
        () => (
          mkdirSync(join(root, 'new', 'x'), { recursive: true }), writeFileSync(join(root, 'new', 'x', 'n.ts'), 'n')
        ),
      ],
      ['a file removed', () => rmSync(join(root, 'src', 'f2.ts'))],
      ['a file renamed', () => renameSync(join(root, 'src', 'f3.ts'), join(root, 'src', 'g3.ts'))],
      ['a folder renamed', () => renameSync(join(root, 'new'), join(root, 'newer'))],
      ['a folder removed', () => rmSync(join(root, 'newer'), { recursive: true })],
      [
        'a folder made a symlink',
        () => (rmSync(join(root, 'src', 'deep'), { recursive: true }), symlinkSync('..', join(root, 'src', 'deep'))),
      ],
      [
        'the symlink made a folder again',
        () => (
          rmSync(join(root, 'src', 'deep')),
          mkdirSync(join(root, 'src', 'deep')),
          writeFileSync(join(root, 'src', 'deep', 'b.ts'), 'b')
        ),
      ],
      [
        'a file made a folder',
        () => (
          rmSync(join(root, 'src', 'f4.ts')),
          mkdirSync(join(root, 'src', 'f4.ts')),
          writeFileSync(join(root, 'src', 'f4.ts', 'in'), 'i')
        ),
      ],
      [
        'a file in an ignored folder',
        () => (
          mkdirSync(join(root, 'node_modules', 'p'), { recursive: true }),
          writeFileSync(join(root, 'node_modules', 'p', 'i.js'), 'i')
        ),
      ],
      [
        "a .gitignore that hides a tracked folder's new files and shows nothing new",
        () => writeFileSync(join(root, '.gitignore'), 'src/deep/\n*.log\n'),
      ],
      ['a file the new rule ignores', () => writeFileSync(join(root, 'x.log'), 'l')],
      ['the rule removed: the ignored file shows', () => rmSync(join(root, '.gitignore'))],
      ['a mode changed', () => chmodSync(join(root, 'src', 'f5.ts'), 0o755)],
      [
        'a nested repository',
        () => (
          mkdirSync(join(root, 'sub', '.git'), { recursive: true }),
          writeFileSync(join(root, 'sub', '.git', 'HEAD'), 'ref: refs/heads/main\n'),
          writeFileSync(join(root, 'sub', 'f'), 'f')
        ),
      ],
      ['a file rewritten with the same size', () => writeFileSync(join(root, 'src', 'f6.ts'), 'export const v = 9;\n')],
      [
        'a file in .hg (watchman leaves it out of the watch)',
        () => (mkdirSync(join(root, '.hg'), { recursive: true }), writeFileSync(join(root, '.hg', 'store'), 's')),
      ],
      ['it changed again', () => appendFileSync(join(root, '.hg', 'store'), 't')],
      [
        'a name that is not UTF-8',
        () => writeFileSync(Buffer.concat([Buffer.from(`${root}/`), Buffer.from([0x66, 0xff, 0x2e, 0x74])]), 'x'),
      ],
      ['nothing', () => {}],
    ];
    const unvouched: string[] = [];
    for (const [what, change] of changes) {
      change();
      const why = await same(journaled, plain);
      if (why !== null) unvouched.push(`${what}: ${why}`);
    }
    // The journal vouched for all but the name watchman cannot give as text (its client fails on
    // it, or gives a name with a replacement character), and the scan after, whose index the gits
    // without the journal's answer wrote without a token.
    expect(unvouched).toHaveLength(2);
    expect(unvouched[0]).toMatch(
      /^a name that is not UTF-8: (no answer from the change journal|a changed name is not text)$/,
    );
    expect(unvouched[1]).toMatch(/^nothing: (no clock to ask from|null)$/);
    expect(inCheckpoints(journaled, 'ls-tree', '-r', '--name-only', 'HEAD')).not.toMatch(/watchman-cookie/);
  });

  it('misses nothing another process changes while and between checkpoints are taken', async () => {
    const { root, journaled, plain } = world();
    await same(journaled, plain);
    // A writer that keeps changing files (a build a bash call left running) until told to stop.
    const writer = spawn(
      process.execPath,
      [
        '-e',
        `const fs=require('fs');let i=0;process.stdin.on('data',()=>process.exit(0));(function w(){fs.writeFileSync(${JSON.stringify(join(root, 'src'))}+'/w'+(i%7)+'.ts',String(i++));fs.appendFileSync(${JSON.stringify(join(root, 'src', 'f0.ts'))},'x');setImmediate(w)})();process.stdout.write('go\\n')`,
      ],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    afterTheTest(() => writer.kill('SIGKILL'));
    await new Promise((resolve) => writer.stdout.once('data', resolve));
    // A checkpoint may fail while the writer truncates a file git reads (a short read): it says so,
    // it does not miss the file. What counts is the checkpoint after the writer stopped.
    for (let i = 0; i < 8; i++) await journaled.take('scan');
    const ended = new Promise((resolve) => writer.once('exit', resolve));
    writer.stdin.end('stop');
    await ended;
    expect(await same(journaled, plain)).toBeNull();
  });

  it('looks at every file when watchman stops, restarts, or loses its state directory', async () => {
    const { dir, root, watchman, journaled, plain } = world();
    await same(journaled, plain);
    appendFileSync(join(root, 'src', 'f1.ts'), '1');
    expect(await same(journaled, plain)).toBeNull();
    watchman.stop();
    appendFileSync(join(root, 'src', 'f1.ts'), '2');
    // With no watchman running, its client answers a query itself, from a crawl of its own: a fresh instance.
    expect(await same(journaled, plain)).toBe('watchman cannot answer since that clock');
    appendFileSync(join(root, 'src', 'f7.ts'), '3');
    expect(await same(journaled, plain)).toBe('no answer from the change journal');
    appendFileSync(join(root, 'src', 'f7.ts'), '3');
    watchman.start();
    // A new watchman: the clock in the index is another instance's.
    expect(await same(journaled, plain)).toBe('no clock to ask from');
    appendFileSync(join(root, 'src', 'f8.ts'), '4');
    expect(await same(journaled, plain)).toBeNull();
    // Its state directory (the socket with it) removed while it runs: no client reaches it.
    rmSync(join(dir, 'wm'), { recursive: true, force: true });
    appendFileSync(join(root, 'src', 'f9.ts'), '5');
    expect(await same(journaled, plain)).toBe('watchman cannot answer since that clock');
    appendFileSync(join(root, 'src', 'f9.ts'), '6');
    expect(await same(journaled, plain)).toBe('no answer from the change journal');
  });

  it('does not take a clock of another watch, or one its index does not hold, as its own', async () => {
    const { dir, root, journal, journaled, plain, make } = world();
    const other = join(dir, 'other');
    mkdirSync(other);
    const stop = new AbortController().signal;
    const otherJournal = new WatchmanJournal(other, {
      env: { PATH: process.env['PATH'] },
      sockname: join(dir, 'wm', 'sock'),
    });
    const foreign = await otherJournal.ask(null, stop);
    expect(foreign?.changed).toBeNull();
    // watchman does not answer for this workspace since the other watch's clock.
    expect((await journal.ask(foreign!.token, stop))?.changed).toBeNull();
    await same(journaled, plain);
    // A second tole with its own journal on the same checkpoint directory publishes its index in between.
    const second = make('home-journal', true);
    appendFileSync(join(root, 'src', 'f1.ts'), 'a');
    expect(await same(second, plain)).toBe('no clock to ask from');
    appendFileSync(join(root, 'src', 'f2.ts'), 'b');
    expect(await same(journaled, plain)).toBe('no clock to ask from');
    appendFileSync(join(root, 'src', 'f3.ts'), 'c');
    expect(await same(journaled, plain)).toBeNull();
  });

  it('is not used on a watch whose configuration hides folders, nor after that configuration changes', async () => {
    const { root, journaled, plain } = world();
    await same(journaled, plain);
    appendFileSync(join(root, 'src', 'f1.ts'), '1');
    expect(await same(journaled, plain)).toBeNull();
    // Written mid-session: that scan looks at every file, and the next asks watchman what is in effect.
    writeFileSync(join(root, '.watchmanconfig'), JSON.stringify({ ignore_dirs: ['build'] }));
    expect(await same(journaled, plain)).toBe("watchman's configuration changed");
    mkdirSync(join(root, 'build'));
    writeFileSync(join(root, 'build', 'out.js'), 'o');
    // The configuration in effect is checked again (get-config): 4.9 keeps the one it read when the
    // watch began, which hides nothing, and reports the folder's changes.
    expect(await same(journaled, plain)).toBeNull();
  });

  it('refuses a watch that starts with a configuration that hides folders', async () => {
    const dir = tempDirForTest('tole-journal-config-');
    const root = join(dir, 'workspace');
    mkdirSync(join(root, 'build'), { recursive: true });
    writeFileSync(join(root, '.watchmanconfig'), JSON.stringify({ ignore_dirs: ['build'] }));
    mkdirSync(join(dir, 'wm'));
    const watchman = ownWatchman(join(dir, 'wm'));
    const journal = new WatchmanJournal(root, { env: { PATH: process.env['PATH'] }, sockname: watchman.sockname });
    const journaled = Checkpoints.create({ home: join(dir, 'a'), workspaceRoot: root, journal });
    const plain = Checkpoints.create({ home: join(dir, 'b'), workspaceRoot: root, journal: null });
    afterTheTest(() => (journaled.close(), plain.close()));
    expect(await same(journaled, plain)).toBe('no answer from the change journal');
    writeFileSync(join(root, 'build', 'out.js'), 'o');
    expect(await same(journaled, plain)).toBe('no answer from the change journal');
  });
});
