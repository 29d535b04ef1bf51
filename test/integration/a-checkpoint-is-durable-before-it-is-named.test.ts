/**
 * A session names a checkpoint right after it is taken (the intent of the call it guards), so a
 * power loss right then must not leave the session naming a checkpoint whose objects never reached
 * the disk. A checkpoint child runs under strace; from its file syscalls, in order, the test keeps
 * which files' bytes were made durable (an fsync of the file, or git's batch mode: a write-out
 * with sync_file_range, made durable by a full fsync after it) and carries that over each link or
 * rename. At each point where the child says a checkpoint is taken (it creates a mark file), every
 * loose object linked into the checkpoint directory since the last mark, and the ref, must have:
 * its bytes durable, and a full fsync after its name was made (the folder that names it, or,
 * for git's own loose objects, any later fsync: on a journalling filesystem such as ext4 that
 * commits the earlier names with it; git syncs no folders); a pack and the ref, named by tole's
 * rename or its sync, must have their folder itself synced after. Both a scan's checkpoint (update-index,
 * write-tree, tole's commit, update-ref) and a known-path one (its blob, trees and commit in one
 * pack tole writes, with its index; update-ref) are watched. Real processes; skipped, with the reason, where strace cannot trace.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDirs, type TempDirs } from '../support/agent-fixtures';
import { childScript } from '../support/test-children';

let dirs: TempDirs;
beforeEach(() => {
  dirs = tempDirs('tole-durable-checkpoint-');
});
afterEach(() => dirs.remove());

const probe = spawnSync('strace', ['-f', '-qq', '-o', '/dev/null', 'true'], { encoding: 'utf8' });
const straceWorks = probe.status === 0;
if (!straceWorks) console.log(`skipped: strace cannot trace here (${probe.error?.message ?? probe.stderr.trim()})`);

const TRACED = 'fsync,fdatasync,sync_file_range,link,linkat,rename,renameat,renameat2,openat';

/** One completed syscall of the log: its name, its text (arguments, fds with their paths) and its result. */
interface Call {
  readonly name: string;
  readonly text: string;
  readonly ok: boolean;
}

/** The log's calls in the order they completed; a call strace split around another's is joined back. */
function callsOf(log: string): Call[] {
  const pending = new Map<string, string>();
  const calls: Call[] = [];
  for (const line of log.split('\n')) {
    const match = /^(\d+)\s+(.*)$/.exec(line);
    if (!match) continue;
    const [, pid, rest] = match as unknown as [string, string, string];
    let text = rest;
    if (text.endsWith('<unfinished ...>')) {
      pending.set(pid, text.slice(0, -'<unfinished ...>'.length));
      continue;
    }
    const resumed = /^<\.\.\. \w+ resumed>(.*)$/.exec(text);
    if (resumed) {
      text = `${pending.get(pid) ?? ''}${resumed[1]}`;
      pending.delete(pid);
    }
    const call = /^(\w+)\((.*)\)\s+=\s+(-?\d+)/.exec(text);
    if (call) calls.push({ name: call[1]!, text: call[2]!, ok: call[3] !== '-1' });
  }
  return calls;
}

/** The path strace printed for a call's fd argument (`3</path>`). */
function fdPath(text: string): string | null {
  return /^\d+<(.*?)>/.exec(text)?.[1] ?? null;
}

/** The two quoted paths of a link or rename (the *at forms name AT_FDCWD first). */
function twoPaths(text: string): [string, string] | null {
  const quoted = [...text.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]!);
  return quoted.length >= 2 ? [quoted[0]!, quoted[1]!] : null;
}

interface Lapse {
  readonly mark: string;
  readonly name: string;
  readonly why: string;
}

/**
 * What a power loss at each mark could take from under it: loose objects and the ref written since
 * the last mark whose bytes or names were not yet durable there.
 */
function lapses(calls: readonly Call[], gitDir: string, marks: readonly string[]): Lapse[] {
  const durable = new Map<string, 'synced' | 'written-out'>();
  const named: { name: string; at: number }[] = [];
  let lastFullSync = -1;
  /** Where in the log each path (a folder, for the check below) was last fsynced. */
  const syncedAt = new Map<string, number>();
  const found: Lapse[] = [];
  const objectName = new RegExp(
    `^${gitDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/(objects/[0-9a-f]{2}/[0-9a-f]{38,62}|objects/pack/pack-[0-9a-f]{40,64}\\.(?:pack|idx)|refs/tole/checkpoints)$`,
  );
  calls.forEach((call, at) => {
    if (!call.ok) return;
    if (call.name === 'fsync' || call.name === 'fdatasync') {
      const path = fdPath(call.text);
      if (path !== null) {
        durable.set(path, 'synced');
        syncedAt.set(path, at);
      }
      // git's batch mode: a full flush makes what was written out before it durable.
      for (const [name, state] of durable) if (state === 'written-out') durable.set(name, 'synced');
      lastFullSync = at;
    } else if (call.name === 'sync_file_range') {
      const path = fdPath(call.text);
      if (path !== null && durable.get(path) !== 'synced') durable.set(path, 'written-out');
    } else if (/^(link|rename)/.test(call.name)) {
      const paths = twoPaths(call.text);
      if (paths === null) return;
      const [from, to] = paths;
      const state = durable.get(from);
      if (state === undefined) durable.delete(to);
      else durable.set(to, state);
      if (objectName.test(to)) named.push({ name: to, at });
    } else if (call.name === 'openat') {
      const mark = marks.find((m) => call.text.includes(`"${m}"`));
      if (mark === undefined) return;
      for (const { name, at: linkedAt } of named.splice(0)) {
        if (durable.get(name) !== 'synced') found.push({ mark, name, why: 'its bytes were not synced' });
        else if (lastFullSync < linkedAt) found.push({ mark, name, why: 'no fsync after its name was made' });
        // A pack and the ref are named by tole's own rename or its sync: the folder itself must be synced.
        else if (!/\/objects\/[0-9a-f]{2}\//.test(name) && (syncedAt.get(dirname(name)) ?? -1) < linkedAt)
          found.push({ mark, name, why: 'its folder was not synced after its name was made' });
      }
    }
  });
  return found;
}

describe.skipIf(!straceWorks)('a checkpoint, the moment it is taken', () => {
  it('has every object it wrote and its ref on the disk, a scan and a known-path one alike', async () => {
    mkdirSync(join(dirs.root, 'src', 'deep'), { recursive: true });
    mkdirSync(join(dirs.root, 'named'));
    for (let i = 0; i < 12; i++) writeFileSync(join(dirs.root, 'src', 'deep', `f${i}.ts`), `export const v = ${i};\n`);
    writeFileSync(join(dirs.root, 'named', 'kept.txt'), 'kept\n');
    const mark = join(dirs.outside, 'mark');
    const log = join(dirs.outside, 'strace.log');
    const child = spawn(
      'strace',
      [
        '-f',
        '-y',
        '-qq',
        '-s',
        '4096',
        '-o',
        log,
        '-e',
        `trace=${TRACED}`,
        '-e',
        'signal=none',
        process.execPath,
      ].concat([childScript('checkpoint-marks'), dirs.home, dirs.root, mark]),
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    const taken = JSON.parse(out) as { scan: { ok: boolean }; known: { ok: boolean } };
    expect(taken.scan).toMatchObject({ ok: true });
    expect(taken.known).toMatchObject({ ok: true });

    const calls = callsOf(readFileSync(log, 'utf8'));
    const gitDir = /"(.*\/checkpoints\/[0-9a-f]+)\/objects\//.exec(calls.map((c) => c.text).join('\n'))?.[1];
    expect(gitDir).toBeDefined();
    const marks = [`${mark}-scan`, `${mark}-known`];
    // The log saw both marks and objects linked (a loose object) or renamed (a pack) into place
    // before each (else the check below checks nothing).
    const objectsBefore = (m: string): number => {
      const at = calls.findIndex((c) => c.name === 'openat' && c.text.includes(`"${m}"`));
      return calls
        .slice(0, at)
        .filter((c) => /^(link|rename)/.test(c.name) && (twoPaths(c.text)?.[1] ?? '').includes(`${gitDir}/objects/`))
        .length;
    };
    expect(objectsBefore(marks[0]!)).toBeGreaterThan(14);
    expect(objectsBefore(marks[1]!)).toBeGreaterThan(objectsBefore(marks[0]!));
    // The known-path checkpoint wrote its objects as a pack (else it scanned, and its pack went unwatched).
    const packsNamed = calls.filter(
      (c) => /^rename/.test(c.name) && /\/objects\/pack\/pack-[0-9a-f]+\.idx$/.test(twoPaths(c.text)?.[1] ?? ''),
    );
    expect(packsNamed).toHaveLength(1);
    expect(lapses(calls, gitDir!, marks)).toEqual([]);
  });
});
