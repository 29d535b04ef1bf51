/**
 * Rows of side-by-side panes are joined from their lines' cached pieces instead of being built
 * cell by cell (src/tui/frame/ink-output.ts). Across a sequence of frames in which panes change, the
 * rows must stay the ones Ink's own Output makes (a stale piece or row would show here), and
 * the cells handed to the frame writer for a joined row must be the cells of its text.
 */
import { Chalk } from 'chalk';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import InkOutput from '../../node_modules/ink/build/output.js';
import Output from '../../src/tui/frame/ink-output';
import { rowCells } from '../../src/tui/frame/row-cells';
import { fcRuns } from '../support/fc-runs';

const colour = new Chalk({ level: 3 });
const TEXTS = [
  'plain words',
  colour.red('red') + ' then ' + colour.bold.blue('bold blue'),
  colour.bold('b') + colour.dim('d') + colour.bold.dim('bd') + colour.dim('d'),
  colour.bgRgb(30, 30, 60)(' selected row ') + colour.dim('dim'),
  colour.inverse('inv') + colour.underline('under'),
  '宽字符 and ascii',
  '中' + colour.red('文') + 'x',
  'e\u0301 combining',
  `${colour.cyan('⠋')} running · seq 12`,
  colour.green('─'.repeat(9)),
  '',
];

/** Panes side by side, as tole's screen draws them: a border each side, text clipped inside. */
interface Pane {
  readonly width: number;
  readonly border: string;
  readonly lines: readonly string[];
}

const HEIGHT = 5;
const paneArb: fc.Arbitrary<Pane> = fc.record({
  width: fc.integer({ min: 3, max: 12 }),
  border: fc.constantFrom('│', colour.gray('│'), colour.bold.cyan('│')),
  lines: fc.array(fc.constantFrom(...TEXTS), { minLength: HEIGHT, maxLength: HEIGHT }),
});

function draw(Kind: typeof InkOutput | typeof Output, width: number, panes: readonly Pane[]): string {
  const output = new Kind({ width, height: HEIGHT });
  let x = 0;
  for (const pane of panes) {
    // As Ink draws a bordered box: the borders first, then the children clipped inside it.
    output.write(x, 0, Array(HEIGHT).fill(pane.border).join('\n'), { transformers: [] });
    output.write(x + pane.width - 1, 0, Array(HEIGHT).fill(pane.border).join('\n'), { transformers: [] });
    output.clip({ x1: x + 1, x2: x + pane.width - 1, y1: 0, y2: HEIGHT });
    pane.lines.forEach((line, y) => {
      if (line) output.write(x + 1, y, line, { transformers: [] });
    });
    output.unclip();
    x += pane.width;
  }
  return output.get().output;
}

/** Cells as the terminal shows them; unstyled spaces past the last character look like none. */
function shown(cells: ReturnType<typeof rowCells>['cells']): string[] {
  let end = cells.length;
  while (end > 0 && cells[end - 1]!.text === ' ' && cells[end - 1]!.style === '') end--;
  // The same codes in another order look the same (the cell's style key keeps their order).
  return cells.slice(0, end).map((c) => `${c.text}/${c.width}/${c.styles.map((code) => code.code).sort()}`);
}

describe("the bundle's Ink output joins rows of side-by-side panes", () => {
  it("makes Ink's rows frame after frame as panes change, and remembers each row's own cells", () => {
    fc.assert(
      fc.property(
        fc.array(paneArb, { minLength: 1, maxLength: 3 }),
        fc.array(fc.record({ pane: fc.nat(2), line: fc.nat(HEIGHT - 1), text: fc.constantFrom(...TEXTS) }), {
          maxLength: 6,
        }),
        fc.integer({ min: 0, max: 4 }),
        (first, changes, spare) => {
          const width = first.reduce((sum, pane) => sum + pane.width, 0) + spare;
          let panes = first;
          const frames = [panes];
          for (const change of changes) {
            const at = change.pane % panes.length;
            panes = panes.map((pane, i) =>
              i === at ? { ...pane, lines: pane.lines.map((l, y) => (y === change.line ? change.text : l)) } : pane,
            );
            frames.push(panes);
          }
          for (const frame of frames) {
            const ours = draw(Output, width, frame);
            expect(ours).toBe(draw(InkOutput, width, frame));
            for (const line of ours.split('\n')) {
              // A trailing reset changes no cell but misses the remembered cells: parsed from the text.
              const parsed = rowCells(`${line}\x1b[0m`, width);
              const remembered = rowCells(line, width);
              expect(shown(remembered.cells)).toEqual(shown(parsed.cells));
              expect(remembered.uncertain).toBe(parsed.uncertain);
            }
          }
        },
      ),
      { numRuns: fcRuns(0.8) },
    );
  });

  it('shows a pane line that changed, and only in its own pane', () => {
    const pane = (lines: string[]): Pane => ({ width: 10, border: '│', lines });
    const left = pane(['left 0', 'left 1', 'left 2', 'left 3', 'left 4']);
    const right = pane(['right 0', 'right 1', 'right 2', 'right 3', 'right 4']);
    const before = draw(Output, 20, [left, right]).split('\n');
    const changed = pane(['right 0', colour.red('RIGHT 1'), 'right 2', 'right 3', 'right 4']);
    const after = draw(Output, 20, [left, changed]).split('\n');
    expect(after[1]).toBe(`│left 1  ││${colour.red('RIGHT 1')} │`);
    expect(after.filter((line, y) => line !== before[y])).toEqual([after[1]]);
    expect(draw(Output, 20, [left, right]).split('\n')).toEqual(before);
  });
});
