/**
 * Keys sent together act as keys sent one by one. Random sequences of keys (arrows with and
 * without modifiers, SS3 keys, Tab, Enter, Backspace, Alt keys, a wheel report, letters, emoji
 * with skin tones, combining marks, flags, bracketed pastes) are fed whole and cut into reads at
 * every offset (the splitter) or at random offsets (through Ink, to a screen that acts on the
 * state it last drew, as tole's panes do): the keys, and the final state, are the same. Through
 * Ink, no read ends with a lone ESC: that is the Escape key, as terminal programs take it.
 */
import { EventEmitter } from 'node:events';
import fc from 'fast-check';
import { render, Text, type Key } from 'ink';
import { useEffect, useState } from 'react';
import { describe, expect, it } from 'vitest';
import { keyedStdin } from '../../src/tui/input/key-chunks';
import { useKeyboard } from '../../src/tui/input/use-keyboard';
import { KeySplitter, PASTE_END, PASTE_START } from '../../src/tui/input/key-splitter';
// TOLE_FC_RUNS's share: the splitter's cases are cheap, each of Ink's mounts an App twice or more.
import { fcRuns } from '../support/fc-runs';

const KEYS = [
  '\x1b[A',
  '\x1b[B',
  '\x1b[5~',
  '\x1b[6~',
  '\x1b[1;5A',
  '\x1b[1;2B',
  '\x1bOA',
  '\x1bOP',
  '\x1b[Z',
  '\x1b[<64;10;5M',
  '\x1bb',
  '\x1b\x7f',
  '\x1b\x1b[A',
  '\t',
  '\r',
  '\x7f',
  'j',
  'k',
  'a',
  'é',
  'e\u0301',
  '👍🏽',
  '😀',
  '🇫🇷',
  '👩‍💻',
  '中',
];
const PASTED = fc
  .array(fc.constantFrom('x', ' ', '\r', '\n', '\t', 'é', '😀', '[', '~', '2', '0'), { minLength: 1, maxLength: 12 })
  .map((chars) => [PASTE_START, chars.join(''), PASTE_END]);
const SEQUENCE = fc
  .array(
    fc.oneof(
      fc.constantFrom(...KEYS).map((key) => [key]),
      PASTED,
    ),
    { minLength: 1, maxLength: 12 },
  )
  .map((groups) => groups.flat());

/** The keys as an editor would take them: text runs joined (a grapheme cut by a read gives the same text), pastes joined. */
function folded(keys: readonly string[]): string[] {
  const out: string[] = [];
  let pasting = false;
  for (const key of keys) {
    const text = pasting ? key !== PASTE_END : !/^[\x00-\x1f\x7f]/.test(key);
    const last = out.length - 1;
    if (text && last >= 0 && out[last]!.startsWith('text:')) out[last] += key;
    else out.push(text ? `text:${key}` : key);
    if (key === PASTE_START) pasting = true;
    if (key === PASTE_END) pasting = false;
  }
  return out;
}

function splitInto(reads: readonly string[]): string[] {
  const splitter = new KeySplitter();
  return [...reads.flatMap((read) => splitter.push(read)), ...splitter.flush()];
}

describe('keys sent together act as keys sent one by one', () => {
  it('the splitter gives each key whole, and the same keys however the reads are cut', () => {
    fc.assert(
      fc.property(SEQUENCE, (keys) => {
        const whole = keys.join('');
        expect(splitInto([whole])).toEqual(keys);
        for (let at = 1; at < whole.length; at++)
          expect(folded(splitInto([whole.slice(0, at), whole.slice(at)]))).toEqual(folded(keys));
      }),
      { numRuns: fcRuns(2) },
    );
  });

  it('through Ink, each key of a read acts on what the one before did', async () => {
    await fc.assert(
      fc.asyncProperty(SEQUENCE, fc.array(fc.nat(), { maxLength: 4 }), async (keys, cuts) => {
        const whole = keys.join('');
        const expected = await screenAfter([whole], keys.length);
        // A read that ends with a lone ESC is the Escape key (as in every terminal program): not cut there.
        const offsets = [...new Set(cuts.map((cut) => cut % whole.length))]
          .filter((at) => whole[at - 1] !== '\x1b')
          .sort((a, b) => a - b);
        const reads = [0, ...offsets]
          .map((from, i) => whole.slice(from, [...offsets, whole.length][i]))
          .filter(Boolean);
        const state = await screenAfter(reads, null, expected);
        expect({ ...state, events: 0 }).toEqual({ ...expected, events: 0 });
      }),
      { numRuns: fcRuns(0.12) },
    );
  });
});

/** A terminal whose every write is one read of its own. */
class Terminal extends EventEmitter {
  readonly isTTY = true;
  readonly #reads: string[] = [];
  write(read: string): void {
    this.#reads.push(read);
    this.emit('readable');
  }
  read(): string | null {
    return this.#reads.shift() ?? null;
  }
  setEncoding(): void {}
  setRawMode(): void {}
  ref(): void {}
  unref(): void {}
  resume(): void {}
  pause(): void {}
}

interface ProbeState {
  readonly focus: number;
  readonly line: number;
  readonly text: string;
  readonly pasting: boolean;
  readonly sends: number;
  readonly events: number;
}

const START: ProbeState = { focus: 0, line: 0, text: '', pasting: false, sends: 0, events: 0 };

/** A screen's reducer, as tole's keys act: every move is from the state last drawn. */
function step(state: ProbeState, input: string, key: Key): ProbeState {
  const s = { ...state, events: state.events + 1 };
  if (input === '[200~' || input === '[201~') return { ...s, pasting: input === '[200~' };
  if (state.pasting) return { ...s, text: s.text + input };
  if (key.tab) return { ...s, focus: (s.focus + (key.shift ? 4 : 1)) % 5 };
  if (key.upArrow || input === 'k') return { ...s, line: s.line - (key.ctrl ? 5 : 1) };
  if (key.downArrow || input === 'j') return { ...s, line: s.line + 1 };
  if (key.pageUp || key.pageDown) return { ...s, line: s.line + (key.pageUp ? -10 : 10) };
  if (key.return) return { ...s, sends: s.sends + 1 };
  if (key.backspace || key.delete) return { ...s, text: `${s.text}⌫` };
  if (key.meta || key.ctrl) return { ...s, text: `${s.text}[${input}]` };
  return { ...s, text: s.text + input };
}

function Probe({ onState }: { readonly onState: (state: ProbeState) => void }) {
  const [state, setState] = useState(START);
  // The handler reads the state it was drawn with, as the panes' scrolling does.
  useKeyboard(
    (input, key) => setState(step(state, input, key)),
    (text) => setState({ ...state, text: state.text + text, events: state.events + 3 }),
  );
  useEffect(() => onState(state), [state, onState]);
  return <Text>{state.text}</Text>;
}

/** The probe's state once `reads` have been read: after `events` keys, or once it equals `target`. */
async function screenAfter(reads: readonly string[], events: number | null, target?: ProbeState): Promise<ProbeState> {
  const terminal = new Terminal();
  const stdout = Object.assign(new EventEmitter(), { columns: 80, rows: 24, write: () => true });
  let latest = START;
  const instance = render(
    <Probe
      onState={(state) => {
        latest = state;
      }}
    />,
    {
      stdin: keyedStdin(terminal as unknown as NodeJS.ReadStream),
      stdout: stdout as unknown as NodeJS.WriteStream,
      debug: true,
      exitOnCtrlC: false,
      patchConsole: false,
    },
  );
  try {
    await until(() => terminal.listenerCount('readable') > 0);
    // Each read reaches tole at once, as a terminal's do: the keys of one wait behind the other's.
    for (const read of reads) terminal.write(read);
    const done = (): boolean =>
      events !== null
        ? latest.events >= events
        : JSON.stringify({ ...latest, events: 0 }) === JSON.stringify({ ...target, events: 0 });
    await until(done);
    if (events !== null) expect(latest.events, `keys: ${JSON.stringify(reads)}`).toBe(events);
    return latest;
  } finally {
    instance.unmount();
    instance.cleanup();
  }
}

/** Waits on a condition; the bound only ends a failure. */
async function until(test: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !test(); i++) await new Promise((resolve) => setTimeout(resolve, 2));
}
