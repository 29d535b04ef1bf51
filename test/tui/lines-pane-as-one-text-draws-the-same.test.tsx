/**
 * The lines panes (transcript, usage, registers) hand Ink their lines as one text node
 * (src/tui/panes/LinesPane.tsx) instead of a node per line. For any lines, and as they change frame
 * after frame (scrolling, a theme change), the frame must be the one a node per line draws;
 * a line wider than the pane (which callers do not give) must still be cut as Ink cuts it.
 */
import { Chalk } from 'chalk';
import fc from 'fast-check';
import { Box, render } from 'ink';
import type { ReactElement } from 'react';
import { describe, expect, it } from 'vitest';
import { counted } from '../../src/tui/text/format';
import { LinesPane } from '../../src/tui/panes/LinesPane';
import { paneInnerSize, RuledPane } from '../../src/tui/panes/RuledPane';
import { StyledLine } from '../../src/tui/style/StyledLine';
import widestLine from '../../src/tui/text/text-width';
import { seg, truncateLine, type Line } from '../../src/tui/style/styled-line';
import type { StyleName } from '../../src/tui/style/styles';
import { loadTheme } from '../../src/tui/style/theme';
import { ThemeContext, themeView, type ThemeView } from '../../src/tui/style/theme-context';
import { treeLine } from '../../src/tui/tree/tree-line';
import { TreePane } from '../../src/tui/tree/TreePane';
import { useSessionView } from '../../src/tui/screen/use-session-view';
import { FakeStdin, FakeStdout } from './harness';
import { prepareSession } from './session-fixture';
import { fcRuns } from '../support/fc-runs';

const colour = new Chalk({ level: 3 });
/** Themes whose paint shows in the frame (the test's chalk has colour whatever the terminal). */
const THEMES: readonly ThemeView[] = [
  paintedWith({ text: colour.white, faint: colour.gray.dim, accent: colour.cyan, error: colour.red.bold }),
  paintedWith({ text: colour.black, faint: colour.dim, accent: colour.bgBlue.yellow, error: colour.inverse }),
];

function paintedWith(painters: Partial<Record<StyleName, (text: string) => string>>): ThemeView {
  const view = themeView(loadTheme('dark'), false);
  return {
    ...view,
    paint: (text, name, base) => {
      const painted = name && painters[name] ? painters[name](text) : text;
      return base ? colour.bgBlue(painted) : painted;
    },
  };
}

/** The panes as they were drawn before: a text node per line. */
function NodePerLine({
  title,
  lines,
  width,
  height,
}: {
  title: string;
  lines: readonly Line[];
  width: number;
  height: number;
}) {
  return (
    <RuledPane title={title} width={width} height={height} focused={false} edge="screen">
      <Box flexDirection="column">
        {lines.map((line, i) => (
          <StyledLine key={i} line={line} />
        ))}
      </Box>
    </RuledPane>
  );
}

const TEXTS = ['word', 'two words', ' ', '', '宽字符', 'e\u0301', '✓ done', '👍', 'tab\tless', '  indented', 'end '];
const STYLES: readonly (StyleName | undefined)[] = [undefined, 'text', 'faint', 'accent', 'error'];
const lineArb: fc.Arbitrary<Line> = fc
  .array(fc.tuple(fc.constantFrom(...TEXTS), fc.constantFrom(...STYLES)), { maxLength: 5 })
  .map((segments) => segments.filter(([text]) => text !== '').map(([text, style]) => seg(text, style)));

interface Frame {
  readonly theme: number;
  readonly lines: readonly Line[];
}

/** Draws each frame into its own Ink instance (rerendered frame after frame) and returns the frames. */
function draw(frames: readonly Frame[], pane: (frame: Frame) => ReactElement, columns: number): string[] {
  const stdout = new FakeStdout(columns, 20);
  const element = (frame: Frame) => (
    <ThemeContext.Provider value={THEMES[frame.theme]!}>{pane(frame)}</ThemeContext.Provider>
  );
  const instance = render(element(frames[0]!), {
    stdout: stdout as unknown as NodeJS.WriteStream,
    stdin: new FakeStdin() as unknown as NodeJS.ReadStream,
    patchConsole: false,
    debug: true,
  });
  const out = [stdout.frames.at(-1)!];
  try {
    for (const frame of frames.slice(1)) {
      instance.rerender(element(frame));
      out.push(stdout.frames.at(-1)!);
    }
  } finally {
    instance.unmount();
  }
  return out;
}

describe('a lines pane drawn as one text node', () => {
  it('draws the frames a node per line draws, as its lines scroll, change and change theme', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 8, max: 30 }),
        fc.integer({ min: 3, max: 8 }),
        fc.boolean(),
        fc.array(fc.record({ theme: fc.integer({ min: 0, max: 1 }), lines: fc.array(lineArb, { maxLength: 8 }) }), {
          minLength: 1,
          maxLength: 3,
        }),
        (width, height, cut, raw) => {
          const inner = paneInnerSize(width, height + 2);
          // Callers cut their lines to the pane (`cut`); uncut, some lines are wider than it.
          const frames = raw.map((frame) => ({
            theme: frame.theme,
            lines: frame.lines.slice(0, inner.height).map((line) => (cut ? truncateLine(line, inner.width) : line)),
          }));
          // Scrolling: the next frame keeps the same line objects, one row up; then the theme changes under them.
          const scrolled = frames.flatMap((frame) => {
            const up = { ...frame, lines: [...frame.lines.slice(1), [seg('new', 'accent')]] };
            return [frame, up, { ...up, theme: 1 - frame.theme }];
          });
          const ours = draw(
            scrolled,
            (frame) => <LinesPane title="pane" lines={frame.lines} width={width} height={height + 2} focused={false} />,
            width + 4,
          );
          const theirs = draw(
            scrolled,
            (frame) => <NodePerLine title="pane" lines={frame.lines} width={width} height={height + 2} />,
            width + 4,
          );
          expect(ours).toEqual(theirs);
        },
      ),
      { numRuns: fcRuns(0.12) },
    );
  });

  it('shows colour, wide characters and a line cut by Ink when one is wider than the pane', () => {
    const lines: Line[] = [
      [seg('宽字符', 'accent'), seg(' x', 'error')],
      [],
      [seg('a line much wider than this pane is', 'text')],
    ];
    const [ours] = draw(
      [{ theme: 0, lines }],
      (f) => <LinesPane title="p" lines={f.lines} width={16} height={6} focused={false} />,
      20,
    );
    const [theirs] = draw(
      [{ theme: 0, lines }],
      (f) => <NodePerLine title="p" lines={f.lines} width={16} height={6} />,
      20,
    );
    expect(ours).toBe(theirs);
    expect(ours).toContain('\x1b[36m宽字符');
    expect(ours).toContain('…');
  });

  it('the tree pane draws its rows, the selected one on its base, as a node per row does', () => {
    const { store } = prepareSession();
    const width = 40;
    const height = 16;
    function Tree({ selected, focused, ours }: { selected: number; focused: boolean; ours: boolean }) {
      const view = useSessionView(store, store.lastSeq, null);
      if (ours)
        return (
          <TreePane
            store={store}
            rows={view.rows}
            selected={selected}
            headId={view.head.entryId}
            pathIds={view.pathIds}
            labels={view.labels}
            branches={view.laneCount}
            width={width}
            height={height}
            focused={focused}
          />
        );
      // Before: a node per row (every row fits, so the first row shown is the first).
      const inner = paneInnerSize(width, height);
      return (
        <RuledPane
          title={`tree · ${view.laneCount} branches`}
          note={counted(view.rows.rows.length, 'entry', 'entries')}
          width={width}
          height={height}
          focused={focused}
          edge="screen"
        >
          <Box flexDirection="column">
            {view.rows.rows.map((row, i) => (
              <StyledLine
                key={row.id}
                line={treeLine({
                  row,
                  entry: store.entry(row.id)!,
                  label: view.labels.get(row.id),
                  onPath: view.pathIds.has(row.id),
                  isHead: row.id === view.head.entryId,
                  width: inner.width,
                  match: false,
                })}
                {...(focused && i === selected ? { base: 'selected' as const } : {})}
              />
            ))}
          </Box>
        </RuledPane>
      );
    }
    const views = [
      { selected: 3, focused: true },
      { selected: 4, focused: true },
      { selected: 4, focused: false },
    ];
    const frames = views.map((v) => ({ theme: 0, lines: [], ...v }));
    const ours = draw(frames, (f) => <Tree {...(f as (typeof frames)[number])} ours />, width + 4);
    const theirs = draw(frames, (f) => <Tree {...(f as (typeof frames)[number])} ours={false} />, width + 4);
    expect(ours).toEqual(theirs);
    expect(ours[0]).not.toBe(ours[1]);
  });

  it('measures a long pane text right frame after frame (kept among the few long texts measured last)', () => {
    const pane = (wide: number, n: number): string =>
      Array.from({ length: 40 }, (_, i) => colour.white(`${i === n % 40 ? 'x'.repeat(wide) : 'word '.repeat(9)}`)).join(
        '\n',
      );
    // Texts past 2,000 characters, each new: the width follows the text, whichever was measured before.
    for (let frame = 0; frame < 30; frame++) {
      const wide = 46 + (frame % 7);
      const text = pane(wide, frame);
      expect(text.length).toBeGreaterThan(2_000);
      expect(widestLine(text)).toBe(wide);
      expect(widestLine(pane(wide, frame))).toBe(wide);
    }
  });
});
