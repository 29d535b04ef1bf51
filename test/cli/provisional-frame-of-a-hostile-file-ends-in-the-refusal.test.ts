import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { drawProvisionalFrame } from '../../src/cli/provisional-frame';
import { seededRandom } from '../../src/core/clock';
import { isStorageError } from '../../src/core/storage/errors';
import { LINE_PREFIX_BYTES } from '../../src/core/storage/line-codec';
import { SessionStore } from '../../src/core/storage/session-store';
import { tempDirForTest } from '../support/after-the-test';
import { commitTurns } from '../support/session-turns';
import { linesOf, rechained, steppingClock } from '../support/storage-fixtures';
import { fastOps, storeIn } from '../tui/session-fixture';

/** A session of `turns` commits, larger than the tail the preview reads, so that damage mid-file lies outside it. */
function writtenSession(turns: number): string {
  const store = storeIn(tempDirForTest('tole-provisional-hostile-'), fastOps);
  commitTurns(store, turns, {
    question: (i) => `question ${i}: ${'how does the store replay a torn tail? '.repeat(4)}`,
    answer: (i) => `answer ${i}: it cuts the bad final line away.`,
  });
  store.close();
  return store.path;
}

/** A terminal as the frame sees one: what is written to it, and its raw mode. */
function terminal() {
  let written = '';
  const stdout = {
    isTTY: true,
    columns: 120,
    rows: 40,
    write: (data: string | Uint8Array) => {
      written += typeof data === 'string' ? data : Buffer.from(data).toString('utf8');
      return true;
    },
  } as unknown as NodeJS.WriteStream;
  const setRawMode = vi.fn();
  const stdin = { isTTY: true, setRawMode } as unknown as NodeJS.ReadStream;
  return { stdout, stdin, setRawMode, written: () => written };
}

/** What tole asks the frame for, on `tty`: the session at `path`, opened read-only, dark, no colour, no notices. */
function frameRequest(path: string, tty: ReturnType<typeof terminal>) {
  return {
    path,
    stdout: tty.stdout,
    stdin: tty.stdin,
    theme: 'dark',
    noColor: true,
    readOnly: true,
    notices: [] as string[],
  };
}

const body = (line: Buffer): string => line.subarray(LINE_PREFIX_BYTES, line.length - 1).toString('utf8');

/** Each hostile file: the session's bytes changed mid-file, where the tail the frame is drawn from does not reach. */
const HOSTILE: readonly {
  readonly name: string;
  readonly damage: (bytes: Buffer) => Buffer;
  readonly refusal: RegExp;
}[] = [
  {
    name: 'a bad CRC mid-file',
    damage: (bytes) => {
      const lines = linesOf(bytes);
      const at = lineStart(lines, Math.floor(lines.length / 2)) + 40;
      const out = Buffer.from(bytes);
      out[at] = out[at]! ^ 0x20;
      return out;
    },
    refusal: /line \d+: checksum mismatch/,
  },
  {
    name: 'a lying parent mid-file, its CRC chained again',
    damage: (bytes) => {
      const lines = linesOf(bytes);
      const n = Math.floor(lines.length / 2);
      const lying = body(lines[n - 1]!).replace(/"parentId":"e_\d+"/, '"parentId":"e_999999"');
      return rechained(lines, n, Buffer.from(lying));
    },
    refusal: /names parent e_999999, which does not exist/,
  },
  {
    name: 'a forged head line (another session id), every commit line as it was',
    damage: (bytes) => {
      const text = bytes.toString('latin1');
      const end = text.indexOf('\n');
      const header = JSON.parse(text.slice(0, end)) as { id: string };
      const forged = JSON.stringify({ ...header, id: `${header.id.slice(0, -4)}beef` });
      return Buffer.concat([Buffer.from(forged, 'latin1'), bytes.subarray(end)]);
    },
    refusal: /line 2: checksum mismatch/,
  },
];

function lineStart(lines: readonly Buffer[], index: number): number {
  let at = 0;
  for (let i = 0; i < index; i++) at += lines[i]!.length + 1;
  return at;
}

describe('a provisional frame drawn from a hostile file', () => {
  for (const hostile of HOSTILE) {
    it(`ends in the open's refusal, the terminal given back: ${hostile.name}`, () => {
      const path = writtenSession(1500);
      writeFileSync(path, hostile.damage(readFileSync(path)));
      const tty = terminal();
      const frame = drawProvisionalFrame({ ...frameRequest(path, tty), minBytes: 0 });
      // The frame was drawn from the tail, which holds together: the damage lies before it.
      expect(frame).not.toBeNull();
      expect(tty.written()).toContain('checking session…');
      expect(tty.written()).toContain('answer 1499: it cuts the bad final line away.');
      expect(tty.setRawMode).toHaveBeenLastCalledWith(true);
      // The open refuses the file as it does without the frame (the words tole prints today).
      let refused: unknown = null;
      try {
        SessionStore.open(path, { clock: steppingClock(), random: seededRandom(1), readOnly: true }).close();
      } catch (error) {
        refused = error;
      }
      expect(isStorageError(refused, 'corrupt')).toBe(true);
      expect(String((refused as Error).message)).toMatch(hostile.refusal);
      // startTui gives the terminal back before the refusal is told: the shell's screen, cooked keys, the cursor.
      const before = tty.written().length;
      frame!.restore();
      const after = tty.written().slice(before);
      expect(after).toContain('\x1b[?1049l');
      expect(after).toContain('\x1b[?25h');
      expect(tty.setRawMode).toHaveBeenLastCalledWith(false);
    });
  }

  it('gives the terminal back before a signal ends tole, and lets the checked screen take the signals over', () => {
    const path = writtenSession(1500);
    const raised: NodeJS.Signals[] = [];
    const draw = () => {
      const tty = terminal();
      const frame = drawProvisionalFrame({
        ...frameRequest(path, tty),
        minBytes: 0,
        raise: (signal) => raised.push(signal),
      });
      expect(frame).not.toBeNull();
      return { tty, frame: frame! };
    };
    const listening = () => process.listenerCount('SIGTERM') + process.listenerCount('SIGHUP');
    const before = listening();
    for (const signal of ['SIGTERM', 'SIGHUP', 'SIGINT'] as const) {
      const { tty } = draw();
      const drawn = tty.written().length;
      process.emit(signal);
      // The shell's screen, cooked keys and the cursor, then the signal raised again to end tole.
      expect(tty.written().slice(drawn)).toContain('\x1b[?1049l');
      expect(tty.written().slice(drawn)).toContain('\x1b[?25h');
      expect(tty.setRawMode).toHaveBeenLastCalledWith(false);
      expect(raised.at(-1)).toBe(signal);
      expect(listening()).toBe(before);
    }
    // Handed over to the checked screen: a signal is no longer the frame's to answer.
    const { tty, frame } = draw();
    frame.handOver();
    expect(listening()).toBe(before);
    const drawn = tty.written().length;
    const count = raised.length;
    frame.restore();
    expect(tty.written().slice(drawn)).toContain('\x1b[?1049l');
    expect(raised.length).toBe(count);
  });

  it('draws nothing for a file smaller than the size the open checks on a worker, or a tail that does not hold', () => {
    const path = writtenSession(20);
    const tty = terminal();
    const request = frameRequest(path, tty);
    expect(drawProvisionalFrame(request)).toBeNull();
    const bytes = readFileSync(path);
    writeFileSync(path, bytes.subarray(0, bytes.length - 5));
    expect(drawProvisionalFrame({ ...request, minBytes: 0 })).toBeNull();
    expect(tty.written()).toBe('');
    expect(tty.setRawMode).not.toHaveBeenCalled();
  });
});
