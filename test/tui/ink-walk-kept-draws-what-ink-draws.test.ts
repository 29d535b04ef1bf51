import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
// @ts-expect-error a plain .mjs build helper without types
import { inkOutputPlugin } from '../../scripts/ink-output-plugin.mjs';
import { tempDirForFile } from '../support/after-the-test';
import { importInkBundle } from '../support/ink-test-bundle';
import { fcRuns } from '../support/fc-runs';
import { REPO_ROOT } from '../support/repo-root';

const dir = tempDirForFile('tole-kept-walk-');
// Colours drawn (the worker has no terminal, where chalk draws none): a colour changed alone
// must show in the frames.
process.env.FORCE_COLOR = '3';

const SCREEN = `
import { EventEmitter } from 'node:events';
import { createElement as h } from 'react';
import { render, Box, Text, Transform } from 'ink';
import { walkCounts, keepWalks } from ${JSON.stringify(join(REPO_ROOT, 'src/tui/frame/ink-kept-walk.ts'))};
export { walkCounts, keepWalks };
class Out extends EventEmitter {
  constructor(columns) { super(); this.columns = columns; this.rows = 30; this.isTTY = true; this.frames = []; }
  write(data) { this.frames.push(String(data)); return true; }
}
const upper = (line) => line.toUpperCase();
const marked = (line, i) => i + ':' + line;
function pane(spec, items) {
  return items.map((item) =>
    h(Text, { key: item.key, wrap: spec.wrap, color: item.color, bold: item.bold },
      item.text, item.nested ? h(Text, { color: 'red', dimColor: item.dim }, item.nested) : null));
}
function tree(spec) {
  const left = h(Box, { flexDirection: 'column', flexGrow: 1, overflow: spec.clipLeft ? 'hidden' : 'visible', height: spec.leftHeight },
    ...pane(spec, spec.left));
  const right = spec.showRight
    ? h(Box, { flexDirection: 'column', width: spec.side, flexShrink: 0, borderStyle: 'single', borderColor: spec.border, overflow: 'hidden' },
        ...pane(spec, spec.right))
    : null;
  const status = spec.transform === 'none'
    ? h(Text, null, spec.status)
    : h(Transform, { transform: spec.transform === 'upper' ? upper : marked }, h(Text, null, spec.status));
  return h(Box, { flexDirection: 'column', width: spec.width },
    h(Box, { flexDirection: 'row' }, left, right),
    status,
    spec.overlay ? h(Box, { position: 'absolute', marginLeft: 2, marginTop: 1 }, h(Text, { backgroundColor: 'blue' }, spec.overlay)) : null);
}
export function draw(specs) {
  const out = new Out(specs[0].columns);
  const instance = render(tree(specs[0]), { stdout: out, debug: true, patchConsole: false, exitOnCtrlC: false });
  const frames = [];
  for (const spec of specs) {
    if (spec.columns !== out.columns) { out.columns = spec.columns; out.emit('resize'); }
    instance.rerender(tree(spec));
    frames.push(out.frames.at(-1));
  }
  instance.unmount();
  return frames;
}
`;

interface Drawn {
  draw(specs: unknown[]): string[];
  walkCounts: { replayed: number; walked: number };
  keepWalks(on: boolean): void;
}

/**
 * Each name is built once: a second build wrote the same file, whose import gave the module the
 * first import had loaded (three of the file's five builds were thrown away so).
 */
const builds = new Map<string, Promise<Drawn>>();
function bundled(name: string, plugins: unknown[]): Promise<Drawn> {
  let drawn = builds.get(name);
  if (drawn === undefined) builds.set(name, (drawn = importInkBundle<Drawn>(dir, name, SCREEN, plugins)));
  return drawn;
}

const part = fc.constantFrom('a', 'b', 'word ', '宽', ' ', '\n', 'xx', 'longerword');
const text = fc.array(part, { maxLength: 10 }).map((parts) => parts.join(''));
const colour = fc.constantFrom(undefined, 'green', 'yellow');
const itemArb = fc.record({
  key: fc.constantFrom('k1', 'k2', 'k3', 'k4', 'k5'),
  text,
  color: colour,
  bold: fc.boolean(),
  nested: fc.option(text, { nil: undefined }),
  dim: fc.boolean(),
});
const items = fc.uniqueArray(itemArb, { selector: (item) => item.key, maxLength: 4 });

const specArb = fc.record({
  columns: fc.integer({ min: 16, max: 60 }),
  width: fc.integer({ min: 10, max: 60 }),
  side: fc.integer({ min: 4, max: 14 }),
  wrap: fc.constantFrom('wrap', 'truncate-end'),
  clipLeft: fc.boolean(),
  leftHeight: fc.option(fc.integer({ min: 1, max: 6 }), { nil: undefined }),
  showRight: fc.boolean(),
  border: fc.constantFrom('white', 'cyan'),
  left: items,
  right: items,
  status: text,
  transform: fc.constantFrom('none', 'upper', 'marked'),
  overlay: fc.option(text, { nil: undefined }),
});
type Spec = typeof specArb extends fc.Arbitrary<infer T> ? T : never;
type Item = Spec['left'][number];

/** The same text with each ASCII letter swapped for another: the same size, other text. */
const samesize = (t: string): string => t.replace(/[a-z]/g, (c) => (c === 'a' ? 'b' : 'a'));
const eachText = (s: Spec, f: (t: string) => string): Spec => ({
  ...s,
  left: s.left.map((item) => ({ ...item, text: f(item.text) })),
  right: s.right.map((item) => ({ ...item, text: f(item.text) })),
  status: f(s.status),
});

/** Steps: mostly texts alone (drawn from the kept walk), and each change a kept walk could miss. */
const stepArb = fc.oneof(
  { weight: 6, arbitrary: fc.constant((s: Spec): Spec => eachText(s, samesize)) },
  {
    weight: 2,
    arbitrary: fc.record({ i: fc.nat(3), t: text }).map(({ i, t }) => (s: Spec): Spec => {
      if (s.right.length === 0) return { ...s, status: t };
      const right = [...s.right];
      right[i % right.length] = { ...right[i % right.length]!, text: t };
      return { ...s, right };
    }),
  },
  {
    weight: 1,
    arbitrary: colour.map(
      (c) =>
        (s: Spec): Spec => ({ ...s, left: s.left.map((item) => ({ ...item, color: c })) }),
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constant((s: Spec): Spec => ({ ...s, left: s.left.map((item) => ({ ...item, dim: !item.dim })) })),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom('white', 'cyan').map(
      (border) =>
        (s: Spec): Spec => ({ ...s, border }),
    ),
  },
  { weight: 1, arbitrary: fc.constant((s: Spec): Spec => ({ ...s, clipLeft: !s.clipLeft })) },
  { weight: 1, arbitrary: fc.constant((s: Spec): Spec => ({ ...s, showRight: !s.showRight })) },
  {
    weight: 1,
    arbitrary: fc.constant((s: Spec): Spec => ({ ...s, wrap: s.wrap === 'wrap' ? 'truncate-end' : 'wrap' })),
  },
  {
    weight: 1,
    arbitrary: fc.constant((s: Spec): Spec => {
      // A child moved from one box to the other (its key kept: React moves no node, it makes one).
      const moved: Item | undefined = s.left[0];
      if (moved === undefined || s.right.some((item) => item.key === moved.key)) return s;
      return { ...s, left: s.left.slice(1), right: [...s.right, moved] };
    }),
  },
  { weight: 1, arbitrary: fc.constant((s: Spec): Spec => ({ ...s, left: s.left.slice(0, -1) })) },
  { weight: 1, arbitrary: fc.constant((s: Spec): Spec => ({ ...s, left: [...s.left].reverse() })) },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 4, max: 14 }).map(
      (side) =>
        (s: Spec): Spec => ({ ...s, side }),
    ),
  },
  {
    weight: 1,
    arbitrary: fc.option(fc.integer({ min: 1, max: 6 }), { nil: undefined }).map(
      (leftHeight) =>
        (s: Spec): Spec => ({ ...s, leftHeight }),
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom('none', 'upper', 'marked').map(
      (transform) =>
        (s: Spec): Spec => ({ ...s, transform }),
    ),
  },
  {
    weight: 1,
    arbitrary: fc.option(text, { nil: undefined }).map(
      (overlay) =>
        (s: Spec): Spec => ({ ...s, overlay }),
    ),
  },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 16, max: 60 }).map(
      (columns) =>
        (s: Spec): Spec => ({ ...s, columns }),
    ),
  },
  {
    weight: 1,
    arbitrary: specArb.map(
      (next) =>
        (_: Spec): Spec =>
          next,
    ),
  },
);

/** The frames of `specs` drawn by tole's bundle with the kept walk on, and with it off. */
function bothWays(tole: Drawn, specs: Spec[]): { kept: string[]; walked: string[] } {
  const kept = tole.draw(specs);
  tole.keepWalks(false);
  try {
    return { kept, walked: tole.draw(specs) };
  } finally {
    tole.keepWalks(true);
  }
}

const steps = fc.array(stepArb, { minLength: 1, maxLength: 12 });
const run = (first: Spec, moves: ((s: Spec) => Spec)[]): Spec[] => {
  const specs = [first];
  for (const move of moves) specs.push(move(specs.at(-1)!));
  return specs;
};

describe("Ink's walk kept from one frame to the next", () => {
  it('draws every frame as Ink draws it without the plugin', async () => {
    const tole = await bundled('tole', [inkOutputPlugin]);
    const ink = await bundled('ink', []);
    const before = { ...tole.walkCounts };
    // No box of a fixed height here: where texts overflow one, Yoga's layout depends on which
    // texts were laid out again, and tole's build lays out only texts whose size changed
    // (src/tui/frame/ink-text-dirty.ts), which the next case isolates the kept walk from.
    const fits = (s: Spec): Spec => ({ ...s, leftHeight: undefined });
    await fc.assert(
      fc.property(specArb, steps, (first, moves) => {
        const specs = run(fits(first), moves).map(fits);
        expect(tole.draw(specs)).toEqual(ink.draw(specs));
      }),
      { numRuns: fcRuns() },
    );
    // The kept walk drew frames, and whole walks drew the others: neither path went untested.
    expect(tole.walkCounts.replayed - before.replayed).toBeGreaterThan(100);
    expect(tole.walkCounts.walked - before.walked).toBeGreaterThan(100);
  });

  it('draws every frame as the whole walk of the same build draws it', async () => {
    const tole = await bundled('tole', [inkOutputPlugin]);
    const before = tole.walkCounts.replayed;
    await fc.assert(
      fc.property(specArb, steps, (first, moves) => {
        const { kept, walked } = bothWays(tole, run(first, moves));
        expect(kept).toEqual(walked);
      }),
      { numRuns: fcRuns() },
    );
    expect(tole.walkCounts.replayed - before).toBeGreaterThan(100);
  });

  const base: Spec = {
    columns: 40,
    width: 30,
    side: 10,
    wrap: 'wrap',
    clipLeft: false,
    leftHeight: undefined,
    showRight: true,
    border: 'white',
    left: [{ key: 'k1', text: 'abc', color: undefined, bold: false, nested: 'n', dim: false }],
    right: [{ key: 'k2', text: 'side', color: 'green', bold: false, nested: undefined, dim: false }],
    status: 'status',
    transform: 'none',
    overlay: undefined,
  };

  /** Each change after a frame of texts alone (which the kept walk draws), against Ink's frames. */
  it.each<[string, (s: Spec) => Spec]>([
    ['a border colour alone', (s) => ({ ...s, border: 'cyan' })],
    ['a text colour alone', (s) => ({ ...s, left: s.left.map((item) => ({ ...item, color: 'yellow' })) })],
    ['a nested text dimmed alone', (s) => ({ ...s, left: s.left.map((item) => ({ ...item, dim: true })) })],
    ['a child moved to the other box', (s) => ({ ...s, left: [], right: [...s.right, ...s.left] })],
    ['a node removed', (s) => ({ ...s, right: [] })],
    ['the box beside grown', (s) => ({ ...s, side: 14 })],
    ['a pane hidden', (s) => ({ ...s, showRight: false })],
    ['a clip put on', (s) => ({ ...s, clipLeft: true, leftHeight: 1 })],
    ['a transform changed', (s) => ({ ...s, transform: 'upper' })],
    ['an overlay drawn over a pane', (s) => ({ ...s, overlay: 'OVER' })],
    ['the screen resized', (s) => ({ ...s, columns: 20 })],
    [
      'the wrap changed',
      (s) => ({
        ...s,
        wrap: 'truncate-end',
        left: s.left.map((item) => ({ ...item, text: 'a b c d e f g h i j k l m n o' })),
      }),
    ],
  ])('draws %s as Ink does', async (_, change) => {
    const tole = await bundled('tole', [inkOutputPlugin]);
    const ink = await bundled('ink', []);
    const streamed = eachText(base, samesize);
    const specs = [base, streamed, change(streamed), eachText(change(streamed), samesize)];
    const before = tole.walkCounts.replayed;
    expect(tole.draw(specs)).toEqual(ink.draw(specs));
    expect(tole.walkCounts.replayed).toBeGreaterThan(before);
  });
});
