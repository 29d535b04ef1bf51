import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
// @ts-expect-error a plain .mjs build helper without types
import { inkOutputPlugin } from '../../scripts/ink-output-plugin.mjs';
import { tempDirForFile } from '../support/after-the-test';
import { importInkBundle } from '../support/ink-test-bundle';
import { fcRuns } from '../support/fc-runs';

const dir = tempDirForFile('tole-text-layout-');

/** A screen of boxes and texts from `spec`, drawn by one bundle's Ink; each `update` draws the next. */
const SCREEN = `
import { EventEmitter } from 'node:events';
import { createElement as h } from 'react';
import { render, Box, Text } from 'ink';
class Out extends EventEmitter {
  constructor(columns) { super(); this.columns = columns; this.rows = 30; this.isTTY = true; this.frames = []; }
  write(data) { this.frames.push(String(data)); return true; }
}
function tree(spec) {
  return h(Box, { flexDirection: 'column', width: spec.width },
    h(Box, { flexDirection: 'row' },
      h(Box, { flexDirection: 'column', flexGrow: 1 },
        ...spec.left.map((text, i) => h(Text, { key: i, wrap: spec.wrap }, text))),
      h(Box, { flexDirection: 'column', width: spec.side, flexShrink: 0, borderStyle: 'single' },
        ...spec.right.map((text, i) => h(Text, { key: i, wrap: 'truncate-end', color: i % 2 ? 'green' : undefined },
          text, spec.nested ? h(Text, { bold: true }, spec.nested) : null)))),
    h(Text, null, spec.status));
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

function bundled(name: string, plugins: unknown[]): Promise<{ draw(specs: unknown[]): string[] }> {
  return importInkBundle(dir, name, SCREEN, plugins);
}

const part = fc.constantFrom('a', 'b', 'word ', '宽', '👍', ' ', '\n', 'xx', 'longerword');
const text = fc.array(part, { maxLength: 12 }).map((parts) => parts.join(''));
/** The same text with each ASCII letter swapped for another: the same size, other text. */
const samesize = (t: string): string => t.replace(/[a-z]/g, (c) => (c === 'a' ? 'b' : 'a'));

/** The same characters turned by one: the same width unwrapped, words broken elsewhere when wrapped. */
const turned = (t: string): string => (t.length < 2 ? t : t.slice(1) + t[0]);

const specArb = fc.record({
  columns: fc.integer({ min: 20, max: 60 }),
  width: fc.integer({ min: 10, max: 60 }),
  side: fc.integer({ min: 4, max: 14 }),
  wrap: fc.constantFrom('wrap', 'truncate-end'),
  left: fc.array(text, { minLength: 1, maxLength: 4 }),
  right: fc.array(text, { maxLength: 3 }),
  nested: fc.option(text, { nil: undefined }),
  status: text,
});
type Spec = typeof specArb extends fc.Arbitrary<infer T> ? T : never;

/** A step: most keep every size and change the text (a streamed frame), some change anything. */
const stepArb = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constant((s: Spec): Spec => ({ ...s, left: s.left.map(samesize), status: samesize(s.status) })),
  },
  { weight: 2, arbitrary: fc.constant((s: Spec): Spec => ({ ...s, left: s.left.map(turned) })) },
  {
    weight: 1,
    arbitrary: specArb.map(
      (next) =>
        (_: Spec): Spec =>
          next,
    ),
  },
  {
    weight: 1,
    arbitrary: fc.record({ i: fc.nat(3), t: text }).map(({ i, t }) => (s: Spec): Spec => {
      const left = [...s.left];
      left[i % left.length] = t;
      return { ...s, left };
    }),
  },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 20, max: 60 }).map(
      (columns) =>
        (s: Spec): Spec => ({ ...s, columns }),
    ),
  },
);

describe("a text node's layout is kept while its size is", () => {
  it('and every frame is the one Ink draws without that', async () => {
    const tole = await bundled('tole', [inkOutputPlugin]);
    const ink = await bundled('ink', []);
    await fc.assert(
      fc.property(specArb, fc.array(stepArb, { minLength: 1, maxLength: 10 }), (first, steps) => {
        const specs = [first];
        for (const step of steps) specs.push(step(specs.at(-1)!));
        expect(tole.draw(specs)).toEqual(ink.draw(specs));
      }),
      { numRuns: fcRuns() },
    );
  });

  it('lays a wrapped text out again when its words break elsewhere, its unwrapped size the same', async () => {
    const tole = await bundled('tole', [inkOutputPlugin]);
    const ink = await bundled('ink', []);
    const base = { columns: 40, width: 10, side: 4, wrap: 'wrap', right: [], nested: undefined, status: 'bar' };
    // Both 12 columns unwrapped; in the 6 columns left for them, three rows and then two.
    const specs = [
      { ...base, left: ['aaaa bbbb cc', 'END'] },
      { ...base, left: ['aa bb cccccc', 'END'] },
      { ...base, left: ['aaaa bbbb cc', 'END'] },
    ];
    const frames = tole.draw(specs);
    expect(frames).toEqual(ink.draw(specs));
    expect(frames[1]!.split('\n').findIndex((row) => row.includes('END'))).toBe(2);
    expect(frames[2]!.split('\n').findIndex((row) => row.includes('END'))).toBe(3);
  });
});
