/**
 * An answer's shape read from its payload's bytes (answer-shape.ts) is what `JSON.parse` of them
 * gives: tool calls exactly when `toolCalls` is a non-empty array, and "no plan" only when
 * plan-inference.ts's test cannot match the text. Anything the bytes reader is unsure of, written
 * otherwise or not JSON, gives null (the payload is parsed then).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shapeInBytes } from '../../../src/core/storage/answer-shape';
import { fcRuns } from '../../support/fc-runs';

/** plan-inference.ts's first test of a text. */
const MAY_HOLD_A_PLAN = /\[[ xX]\]|plan/i;

/** Escapes as `\uXXXX` every character of a JSON string's text that the plan test looks at. */
function escapedString(text: string): string {
  return JSON.stringify(text).replace(
    /[planPLAN[\] xX]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

const plannish = fc.constantFrom(
  'PLAN:\n- read\n- write',
  '- [ ] one\n- [x] two',
  '[X]',
  'a plan',
  'Plan',
  'pLaN',
  'p\nlan',
  'pla',
  '[ x]',
  '[\t]',
  'é plan',
  '\u212a',
  '\\u0070lan',
  '"plan"',
  '',
);
const text = fc.oneof(
  fc.string(),
  fc.array(fc.oneof(plannish, fc.string({ maxLength: 4 })), { maxLength: 5 }).map((p) => p.join('')),
);
const toolCalls = fc.oneof(
  { weight: 4, arbitrary: fc.constant([]) },
  { weight: 4, arbitrary: fc.constant([{ id: 'c1', name: 'bash', input: { command: 'ls' } }]) },
  fc.constant([{ id: 'c1', name: 'bash', input: { command: 'ls' } }]),
  fc.constant('calls'),
  fc.constant(''),
  fc.constant(3),
  fc.constant(null),
  fc.constant({ length: 2 }),
);

/** A payload written as tole writes it, or otherwise: keys reordered or escaped, spaces, repeated keys, a key left out. */
const written = fc
  .record({
    text,
    toolCalls,
    model: fc.constantFrom('m', 'pl\\an'),
    escapeText: fc.boolean(),
    escapeKey: fc.constantFrom(-1, -1, -1, -1, 0, 1),
    space: fc.constantFrom('', ' ', '\n\t'),
    order: fc.constantFrom('as tole', 'calls first', 'text last'),
    repeat: fc.constantFrom('none', 'none', 'text', 'toolCalls', 'escaped text'),
    repeatText: text,
    drop: fc.constantFrom('none', 'none', 'none', 'none', 'text', 'toolCalls'),
    damage: fc.constantFrom('none', 'none', 'none', 'none', 'none', 'none', 'cut', 'comma', 'bom', 'trailing'),
  })
  .map((w) => {
    const s = w.space;
    const key = (name: string, i: number) =>
      w.escapeKey === i
        ? `"${[...name].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}"`
        : JSON.stringify(name);
    const textValue = w.escapeText ? escapedString(w.text) : JSON.stringify(w.text);
    const pairs: [string, string][] = [];
    if (w.drop !== 'text') pairs.push([key('text', 0), textValue]);
    if (w.drop !== 'toolCalls')
      pairs.push([key('toolCalls', 1), JSON.stringify(w.toolCalls, null, s === '' ? undefined : 1)]);
    pairs.push(['"model"', JSON.stringify(w.model)]);
    if (w.order === 'calls first') pairs.reverse();
    if (w.order === 'text last' && pairs.length > 1) pairs.push(pairs.shift()!);
    if (w.repeat === 'text') pairs.push(['"text"', JSON.stringify(w.repeatText)]);
    if (w.repeat === 'toolCalls') pairs.push(['"toolCalls"', '[{"id":"c2"}]']);
    if (w.repeat === 'escaped text') pairs.push(['"te\\u0078t"', JSON.stringify(w.repeatText)]);
    let json = `${s}{${s}${pairs.map(([k, v]) => `${k}${s}:${s}${v}`).join(`${s},${s}`)}${s}}${s}`;
    if (w.damage === 'cut') json = json.slice(0, Math.max(0, json.length - 2));
    if (w.damage === 'comma') json = json.replace('}', ',}');
    if (w.damage === 'bom') json = `\ufeff${json}`;
    if (w.damage === 'trailing') json = `${json}x`;
    return json;
  });

/** The bytes inside a larger buffer, as a session file's chunk holds them. */
function inChunk(json: string): [Buffer, number, number] {
  const before = Buffer.from('{"seq":1,"payload":');
  const bytes = Buffer.from(json);
  return [
    Buffer.concat([before, bytes, Buffer.from('"plan [ ] \\u0070"}')]),
    before.length,
    before.length + bytes.length,
  ];
}

describe('an answer read from its bytes', () => {
  it('reads as JSON.parse does, or gives null', () => {
    let read = 0;
    fc.assert(
      fc.property(written, (json) => {
        const shape = shapeInBytes(...inChunk(json));
        if (shape === null) return;
        read++;
        const parsed = JSON.parse(json) as { text: unknown; toolCalls: unknown };
        expect(typeof parsed.text).toBe('string');
        expect(Array.isArray(parsed.toolCalls)).toBe(true);
        expect(shape.calls).toBe((parsed.toolCalls as unknown[]).length > 0);
        if (MAY_HOLD_A_PLAN.test(parsed.text as string)) expect(shape.mayHoldPlan).toBe(true);
      }),
      { numRuns: fcRuns(5) },
    );
    // The cases are not all left to JSON.parse.
    expect(read).toBeGreaterThan(fcRuns(5) / 20);
  });

  it('reads a payload written as tole writes it, and says no plan only where there is none', () => {
    fc.assert(
      fc.property(text, fc.boolean(), (t, calls) => {
        const json = JSON.stringify({
          text: t,
          toolCalls: calls ? [{ id: 'c', name: 'bash', input: {} }] : [],
          model: 'm',
        });
        const shape = shapeInBytes(...inChunk(json));
        expect(shape).not.toBeNull();
        expect(shape!.calls).toBe(calls);
        // Without a \u escape in its bytes, the answer is exact.
        if (!JSON.stringify(t).includes('\\u')) expect(shape!.mayHoldPlan).toBe(MAY_HOLD_A_PLAN.test(t));
      }),
      { numRuns: fcRuns(2) },
    );
  });

  it('takes an escape that spells a plan as one, and the last of a repeated key', () => {
    const shape = (json: string) => shapeInBytes(...inChunk(json));
    expect(shape('{"text":"\\u0070lan: x","toolCalls":[]}')?.mayHoldPlan).toBe(true);
    expect(shape('{"text":"\\u005b \\u005d","toolCalls":[]}')?.mayHoldPlan).toBe(true);
    expect(shape('{"text":"p\\nlan \\"[\\\\]\\" [\\t]","toolCalls":[]}')).toEqual({ calls: false, mayHoldPlan: false });
    expect(shape('{"text":"PLAN","toolCalls":[ ]}')).toEqual({ calls: false, mayHoldPlan: true });
    expect(shape('{"text":"x","toolCalls":[],"toolCalls":[{}]}')?.calls).toBe(true);
    expect(shape('{"text":"x","toolCalls":[{}],"toolCalls":[]}')?.calls).toBe(false);
    expect(shape('{"text":"plan","toolCalls":[],"text":"x"}')?.mayHoldPlan).toBe(false);
    // An escaped key may be either: left to JSON.parse.
    expect(shape('{"text":"x","toolCalls":[],"te\\u0078t":"plan"}')).toBeNull();
    expect(shape('{"text":"x","toolCalls":[],"toolCall\\u0073":[1]}')).toBeNull();
    // Not JSON, or not the shape: left to JSON.parse, which names the line.
    expect(shape('{"text":"x","toolCalls":[],}')).toBeNull();
    expect(shape('{"text":"x","toolCalls":[]')).toBeNull();
    expect(shape('{"text":"x\u0001","toolCalls":[]}')).toBeNull();
    expect(shape('{"text":"x","toolCalls":[01]}')).toBeNull();
    expect(shape('{"text":"x","toolCalls":[]} {}')).toBeNull();
    expect(shape('{"text":1,"toolCalls":[]}')).toBeNull();
    expect(shape('{"text":"x","toolCalls":"[]"}')).toBeNull();
    expect(shape('{"text":"x"}')).toBeNull();
    expect(shape('{}')).toBeNull();
    expect(shape('[]')).toBeNull();
  });
});
