import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { EARLY_MIN_BYTES as CLI_MIN_BYTES, resumedPath } from '../../../src/cli/resume-check-early';
import {
  dropEarlyCheck,
  EARLY_MIN_BYTES,
  startEarlyCheck,
  takeEarlyCheck,
} from '../../../src/core/storage/early-check';
import { nodeFileOps } from '../../../src/core/storage/file-ops';
import { replayJsonlAside } from '../../../src/core/storage/jsonl-replay-aside';
import { LINE_PREFIX_BYTES } from '../../../src/core/storage/line-codec';
import { AsideCheck } from '../../../src/core/storage/verify-aside';
import { buildSession, linesOf, openStore, rechained, snapshot, tempDir } from '../../support/storage-fixtures';

const dir = tempDir();
afterAll(() => dir.remove());
afterEach(() => dropEarlyCheck());

const built = buildSession(dir.path);
built.store.close();
const original = readFileSync(built.path);
const lines = linesOf(original);

/** The outcome of a read-only open that checks in a worker at any size: the error, or the state. */
function outcome(file: string, readOnly = true): unknown {
  try {
    const store = openStore(file, { readOnly, asideMinBytes: 0 });
    const result = { state: snapshot(store), report: store.report };
    store.close();
    return result;
  } catch (error) {
    return `${(error as { kind?: string }).kind}: ${(error as Error).message}`;
  }
}

/**
 * Replays `file` beside a worker (or, `worker` false, asking for none): the commits applied and
 * whether the early check was the one that passed it.
 */
function replay(file: string, worker = true): { commits: number; earlyCheck: boolean } {
  const fd = openSync(file, 'r');
  try {
    let commits = 0;
    const result = replayJsonlAside(
      nodeFileOps,
      fd,
      file,
      () => void commits++,
      () => {
        commits = 0;
      },
      0,
      undefined,
      null,
      worker,
    );
    return { commits, earlyCheck: result.earlyCheck === true };
  } finally {
    closeSync(fd);
  }
}

describe('the check of a resumed session begun before the open', () => {
  it('is adopted by the open of the same file, which starts no second check', () => {
    const file = join(dir.path, 'same.jsonl');
    writeFileSync(file, original);
    const early = startEarlyCheck(file, 0);
    expect(early).not.toBeNull();
    expect(replay(file)).toEqual({ commits: lines.length - 1, earlyCheck: true });
    // The early check's worker answered (the open made none of its own), and it is used up.
    expect(early!.check.answeredBy).not.toBeNull();
    expect(takeEarlyCheck(openSync(file, 'r'))).toBeNull();
    expect(replay(file)).toEqual({ commits: lines.length - 1, earlyCheck: false });
  });

  it('is adopted by an open that asks for no worker without its bytes being taken as read before its worker read them', () => {
    const file = join(dir.path, 'no-worker.jsonl');
    writeFileSync(file, original);
    expect(startEarlyCheck(file, 0)).not.toBeNull();
    // Only the reader fills the buffer past the head: an open that said the file was read whole
    // (haveRead) while the early check's worker still read it would replay zeros as a torn tail.
    const haveRead = vi.spyOn(AsideCheck.prototype, 'haveRead');
    try {
      expect(replay(file, false)).toEqual({ commits: lines.length - 1, earlyCheck: true });
      expect(haveRead).not.toHaveBeenCalled();
    } finally {
      haveRead.mockRestore();
    }
  });

  it('is not adopted when the file changed after it read it: the open checks the file again and refuses the damage', () => {
    const file = join(dir.path, 'changed.jsonl');
    writeFileSync(file, original);
    const early = startEarlyCheck(file, 0);
    expect(early).not.toBeNull();
    // The early check has read the good bytes whole; then a line is damaged under matching CRCs
    // (a raw control character in a string: only the check of every byte sees it), same size.
    expect(early!.check.readable(original.length)).toBe(original.length);
    const body = lines[2]!.subarray(LINE_PREFIX_BYTES, lines[2]!.length - 1).toString('utf8');
    const damaged = rechained(lines, 3, Buffer.from(body.replace(/"text":"[a-z]/, '"text":"\t'), 'utf8'));
    expect(damaged.length).toBe(original.length);
    expect(damaged.equals(original)).toBe(false);
    writeFileSync(file, damaged);
    expect(outcome(file)).toMatch(/^corrupt: .*line 3: checksum matches but the commit is not JSON/);
  });

  it('leaves a torn tail to be cut on a writable open exactly as without it', () => {
    const cut = original.subarray(0, original.length - 9);
    const [a, b] = [join(dir.path, 'torn-a.jsonl'), join(dir.path, 'torn-b.jsonl')];
    writeFileSync(a, cut);
    writeFileSync(b, cut);
    expect(startEarlyCheck(a, 0)).not.toBeNull();
    const early = outcome(a, false) as { report: { tornTail: { savedTo?: string } } };
    const fresh = outcome(b, false) as { report: { tornTail: { savedTo?: string } } };
    expect(early.report.tornTail).toMatchObject({ line: lines.length, repaired: true });
    const withoutSavedTo = (o: typeof early): unknown => ({
      ...o,
      report: { ...o.report, tornTail: { ...o.report.tornTail, savedTo: undefined } },
    });
    expect(withoutSavedTo(early)).toEqual(withoutSavedTo(fresh));
    expect(readFileSync(a).equals(readFileSync(b))).toBe(true);
  });

  it('is begun only for a file named by path, and not for a small file or one that is not JSONL', () => {
    expect(resumedPath('sessions/x.jsonl', '/home/a')).toBe('/home/a/sessions/x.jsonl');
    expect(resumedPath('/s/x.jsonl', '/home/a')).toBe('/s/x.jsonl');
    expect(resumedPath('0186a0', '/home/a')).toBeNull();
    expect(resumedPath('', '/home/a')).toBeNull();
    expect(CLI_MIN_BYTES).toBe(EARLY_MIN_BYTES);
    expect(startEarlyCheck(built.path)).toBeNull();
    const notJsonl = join(dir.path, 'not.jsonl');
    writeFileSync(notJsonl, Buffer.concat([Buffer.from('SQLite format 3\n'), original]));
    expect(startEarlyCheck(notJsonl, 0)).toBeNull();
  });
});
