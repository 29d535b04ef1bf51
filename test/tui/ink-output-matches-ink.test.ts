import { Chalk } from 'chalk';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
// Ink's own Output, which the bundle swaps for ours: the two must make the same frames.
import InkOutput from '../../node_modules/ink/build/output.js';
import { styledCharsFromTokens, tokenize } from '@alcalzone/ansi-tokenize';
import Output, {
  clearOutputCaches,
  keptWhole,
  SIMPLE_TEXT,
  styledCharsOfLine,
  tokenizeLine,
} from '../../src/tui/frame/ink-output';
import { fcRuns } from '../support/fc-runs';

type Transformer = (line: string, index: number) => string;

const colour = new Chalk({ level: 3 });
const TEXTS = [
  'plain text',
  'a',
  '',
  '   ',
  colour.red('red') + ' then ' + colour.bold.blue('bold blue'),
  colour.bgRgb(30, 30, 60)(' selected row ') + colour.dim('dim'),
  colour.inverse('inv') + colour.underline('under\nline two') + 'x',
  '宽字符 and ascii',
  'emoji 👍🏽 flag 🇫🇷 done',
  'e\u0301 combining, tab\tand more',
  '╭ border ─────────╮',
  colour.green('multi\nline\ntext that is longer than a pane'),
  '\x1b[38;5;208morange\x1b[39m and \x1b[48;2;1;2;3mbg\x1b[49m',
  `${colour.cyan('⠋')} running · seq 12 · model`,
  `${colour.dim('│')} • item → ◀ ${colour.bold('½ ¼ ×')} ─ ⣿ ‹ʼ›`,
  '\u00ad soft\u00adhyphen',
];

const TRANSFORMERS: readonly Transformer[] = [
  (line) => line,
  (line) => colour.yellow(line),
  (line, index) => (index === 0 ? colour.bold(line) : line),
];

type Op =
  | { type: 'write'; x: number; y: number; text: string; transformers: Transformer[] }
  | {
      type: 'clip';
      clip: { x1: number | undefined; x2: number | undefined; y1: number | undefined; y2: number | undefined };
    }
  | { type: 'unclip' };

const maybe = (arb: fc.Arbitrary<number>) => fc.option(arb, { nil: undefined });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      type: fc.constant('write' as const),
      x: fc.integer({ min: -3, max: 30 }),
      y: fc.integer({ min: -3, max: 12 }),
      text: fc.oneof(fc.constantFrom(...TEXTS), fc.string({ maxLength: 12 })),
      transformers: fc.subarray([...TRANSFORMERS], { maxLength: 2 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant('clip' as const),
      clip: fc.record({
        x1: maybe(fc.integer({ min: -2, max: 20 })),
        x2: maybe(fc.integer({ min: 0, max: 30 })),
        y1: maybe(fc.integer({ min: -2, max: 8 })),
        y2: maybe(fc.integer({ min: 0, max: 12 })),
      }),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ type: 'unclip' as const }) },
);

function frame(Kind: typeof InkOutput | typeof Output, width: number, height: number, ops: readonly Op[]): string {
  const output = new Kind({ width, height });
  for (const op of ops) {
    if (op.type === 'write') output.write(op.x, op.y, op.text, { transformers: op.transformers });
    else if (op.type === 'clip') output.clip(op.clip);
    else output.unclip();
  }
  return output.get().output;
}

describe("the bundle's Ink output", () => {
  it("makes the same frame as Ink's own Output, cold and from its caches", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 24 }),
        fc.integer({ min: 0, max: 10 }),
        fc.array(opArb, { maxLength: 25, size: 'max' }),
        fc.boolean(),
        (width, height, ops, cold) => {
          if (cold) clearOutputCaches();
          const expected = frame(InkOutput, width, height, ops);
          expect(frame(Output, width, height, ops)).toBe(expected);
          // The same frame again comes from the row cache.
          expect(frame(Output, width, height, ops)).toBe(expected);
        },
      ),
      { numRuns: fcRuns() },
    );
  });

  it('builds a changed row again and keeps the rest', () => {
    const ops = (selected: number): Op[] =>
      Array.from({ length: 8 }, (_, y) => ({
        type: 'write' as const,
        x: 1,
        y,
        text: y === selected ? colour.inverse(`row ${y}`) : `row ${y}`,
        transformers: [],
      }));
    for (const selected of [0, 3, 3, 7, 0])
      expect(frame(Output, 20, 8, ops(selected))).toBe(frame(InkOutput, 20, 8, ops(selected)));
  });

  it("keeps a whole line of narrow simple characters (the spinner's, borders) without slice-ansi, as Ink would cut it", () => {
    const narrow: string[] = [];
    for (let code = 0x20; code <= 0x2fff; code++) {
      const char = String.fromCharCode(code);
      if (SIMPLE_TEXT.test(char) && char !== '\u00ad') narrow.push(char);
    }
    for (const char of narrow) expect(keptWhole(char), char).toBe(true);
    expect(keptWhole(`${colour.cyan('⠋')} Streaming · 1.2k tokens · 3 s`)).toBe(true);
    // The status bar's line and the prompt's, as tole draws them.
    expect(keptWhole(`${colour.cyan('⠋')} Streaming · seq 10 · model   ⏎ send  Tab panes  ^C quit  ? keys`)).toBe(true);
    expect(keptWhole(`${colour.bold('❯')}  type a prompt · ✓ ✗ ✘ Σ − ⊘ ⧗ ⟲ ❮`)).toBe(true);
    for (const line of ['\u00ad', 'e\u0301', '宽', '👍', '\x1b]8;;x\x07link\x1b]8;;\x07', '\x1b[2Jx'])
      expect(keptWhole(line), JSON.stringify(line)).toBe(false);
    // Written into a pane that clips at the line's own width: Ink's own Output cuts it with slice-ansi.
    const codes = [
      '\x1b[1m',
      '\x1b[22m',
      '\x1b[38;5;208m',
      '\x1b[39m',
      '\x1b[48;2;1;2;3m',
      '\x1b[49m',
      '\x1b[7m',
      '\x1b[27m',
    ];
    const sameAsInk = (parts: readonly string[], x: number) => {
      const line = parts.join('');
      const ops: Op[] = [
        { type: 'clip', clip: { x1: x, x2: x + 40, y1: undefined, y2: undefined } },
        { type: 'write', x, y: 0, text: line, transformers: [] },
        { type: 'unclip' },
      ];
      expect(frame(Output, 48, 1, ops), JSON.stringify(line)).toBe(frame(InkOutput, 48, 1, ops));
    };
    // Codes before the first character that set one attribute twice: slice-ansi hands them on
    // reduced and reordered (found once by a random run: bold, a background, bold again).
    sameAsInk(['\x1b[1m', '\x1b[48;2;1;2;3m', '\x1b[1m', ' '], 0);
    sameAsInk(['\x1b[38;5;208m', '\x1b[7m', '\x1b[38;5;208m', 'a', '\x1b[1m', '\x1b[1m', 'b'], 0);
    sameAsInk(['\x1b[1;31m', '\x1b[48;2;1;2;3m', '\x1b[1m', 'x'], 1);
    fc.assert(
      fc.property(
        fc.array(fc.oneof({ arbitrary: fc.constantFrom(...narrow), weight: 4 }, fc.constantFrom(...codes)), {
          maxLength: 30,
        }),
        fc.integer({ min: 0, max: 3 }),
        sameAsInk,
      ),
      { numRuns: fcRuns() },
    );
    // The same with the codes first: runs of several codes before the first character are common.
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...codes), { minLength: 2, maxLength: 5 }),
        fc.array(fc.constantFrom(...narrow), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 0, max: 3 }),
        (lead, rest, x) => sameAsInk([...lead, ...rest], x),
      ),
      { numRuns: fcRuns() },
    );
  });

  it('splits lines of simple characters into the tokens ansi-tokenize makes', () => {
    // Every character the fast split takes is one narrow token of its own to ansi-tokenize.
    const simple: string[] = [];
    for (let code = 0x20; code <= 0x2fff; code++) {
      const char = String.fromCharCode(code);
      if (SIMPLE_TEXT.test(char)) simple.push(char);
    }
    expect(simple.length).toBeGreaterThan(1000);
    for (const mark of '⏎❯❮✓✗✘Σ−⊘⧗⟲') expect(simple, mark).toContain(mark);
    for (const char of simple) expect(tokenize(char)).toEqual([{ type: 'char', value: char, fullWidth: false }]);
    // And nothing around it joins it to a neighbour: random lines of them with SGR codes between.
    const codes = ['\x1b[1m', '\x1b[22m', '\x1b[38;5;208m', '\x1b[1;3;31m', '\x1b[48;2;1;2;3m', '\x1b[m', '\x1b[0m'];
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constantFrom(...simple), fc.constantFrom(...codes)), { maxLength: 30 }),
        (parts) => {
          const line = parts.join('');
          expect(SIMPLE_TEXT.test(line)).toBe(true);
          expect(tokenizeLine(line)).toEqual(tokenize(line));
          expect(styledCharsOfLine(line)).toEqual(styledCharsFromTokens(tokenize(line)));
        },
      ),
      { numRuns: fcRuns() },
    );
    // Anything else is left to ansi-tokenize.
    for (const line of ['e\u0301', '宽', '👍', 'a\u200db', '\x1b]8;;x\x07link\x1b]8;;\x07']) {
      expect(tokenizeLine(line)).toEqual(tokenize(line));
      expect(styledCharsOfLine(line)).toEqual(styledCharsFromTokens(tokenize(line)));
    }
    // The characters of a run between two codes share their styles, not a copy each.
    const [a, b, c] = styledCharsOfLine('\x1b[31mab\x1b[1mc');
    expect(a!.styles).toBe(b!.styles);
    expect(b!.styles).not.toBe(c!.styles);
  });
});
