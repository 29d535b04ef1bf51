/**
 * The screen's task state (TaskStateFold.follow) over a path whose entries are still the bytes in
 * the file (a saved index's or the first open's column scan: built when read) is the state the fold
 * of every entry, each payload parsed, gives, on random and hostile paths: plans set by update_plan
 * and by text, superseded, refused or damaged, answers written in ways the bytes reader leaves to
 * JSON.parse, steering after a round, branches and a head that moves. It builds no entry of a type
 * it passes over, no prompt that does not follow a tool round, and parses no answer it can read
 * from its bytes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TaskStateFold, taskStateOf, type TaskState } from '../../../src/core/session/task-state';
import { payloadIsUnparsed, ReplayedEntry } from '../../../src/core/storage/replayed-entry';
import type { AnyEntry } from '../../../src/core/tree/entry-types';
import { type PayloadBytesReader, TreeIndex } from '../../../src/core/tree/tree-index';
import { seededRandom } from '../../../src/core/clock';
import { currentHead } from '../../../src/core/session/cursor';
import { SessionStore } from '../../../src/core/storage/session-store';
import { fcRuns } from '../../support/fc-runs';
import { append, emptyStore, fastOps, fixedClock } from '../../tui/session-fixture';

interface Written {
  readonly type: string;
  /** The payload's JSON as the file holds it. */
  readonly json: string;
}

const escapeAll = (s: string): string =>
  [...s].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

const planText = fc.constantFrom(
  'PLAN:\n- read the file\n- write it',
  'PLAN:\n- read the file\n- write it\n',
  '- [x] read\n- [ ] write',
  '- [x] read\n- [x] write',
  'plan: one thing',
  'no list here',
  'just words',
  '',
);
const steps = fc.constantFrom(
  [{ step: 'a', status: 'in_progress' }],
  [
    { step: 'a', status: 'completed' },
    { step: 'b', status: 'pending' },
  ],
  [{ step: ' ', status: 'pending' }],
  [],
  'not a plan',
);
const callId = fc.constantFrom('c1', 'c2', 'c3');

const answer = fc
  .record({
    text: planText,
    calls: fc.boolean(),
    escaped: fc.constantFrom('none', 'text', 'key'),
    repeat: fc.boolean(),
    shape: fc.constantFrom('ok', 'ok', 'ok', 'no calls key', 'calls not array'),
  })
  .map(({ text, calls, escaped, repeat, shape }): Written => {
    const textJson = escaped === 'text' ? `"${escapeAll(text)}"` : JSON.stringify(text);
    const textKey = escaped === 'key' ? `"${escapeAll('text')}"` : '"text"';
    const callsJson = shape === 'calls not array' ? '"x"' : calls ? '[{"id":"c1","name":"bash","input":{}}]' : '[ ]';
    const parts = [`${textKey}:${textJson}`];
    if (shape !== 'no calls key') parts.push(`"toolCalls":${callsJson}`);
    parts.push('"model":"m"');
    if (repeat) parts.push('"toolCalls":[]');
    return { type: 'assistant', json: `{${parts.join(',')}}` };
  });
const user = fc
  .record({ steered: fc.boolean(), text: planText })
  .map(
    ({ steered, text }): Written => ({ type: 'user', json: JSON.stringify(steered ? { text, steered } : { text }) }),
  );
const intent = fc
  .record({
    callId,
    tool: fc.constantFrom('update_plan', 'bash'),
    plan: steps,
    explanation: fc.option(fc.constant('why')),
  })
  .map(
    ({ callId, tool, plan, explanation }): Written => ({
      type: 'tool_intent',
      json: JSON.stringify({ callId, tool, input: { plan, ...(explanation ? { explanation } : {}) }, subject: 's' }),
    }),
  );
const result = fc
  .record({ callId, tool: fc.constantFrom('update_plan', 'bash'), outcome: fc.constantFrom('ok', 'error') })
  .map(
    ({ callId, tool, outcome }): Written => ({
      type: 'tool_result',
      json: JSON.stringify({ callId, tool, outcome, content: `${tool} ${outcome} `.repeat(3) }),
    }),
  );
const other = fc.constantFrom<Written>(
  { type: 'approval', json: '{"callId":"c1"}' },
  { type: 'compaction', json: 'not json: never read' },
);
const written = fc.oneof(answer, answer, user, intent, result, result, other);

/** Entries with parents: mostly a chain of replies, sometimes a branch from an earlier entry. */
const session = fc.array(fc.record({ entry: written, branch: fc.option(fc.nat(), { freq: 6 }) }), {
  minLength: 1,
  maxLength: 40,
});

interface Built {
  readonly tree: TreeIndex;
  readonly ids: readonly string[];
  readonly made: number[];
  /** The same entries as plain objects, each payload parsed (an unparsable one throws when read). */
  readonly parsed: ReadonlyMap<string, AnyEntry>;
}

/** `withBytes`: the tree can read a deferred entry's payload bytes without building it (as a saved index's or the scan's can). */
function build(adds: readonly { entry: Written; branch: number | null }[], withBytes = true): Built {
  const ids = adds.map((_, i) => `e_${i + 1}`);
  const parentAt = Int32Array.from(adds, ({ branch }, i) => (i === 0 ? -1 : branch === null ? i - 1 : branch % i));
  const file = Buffer.from(adds.map(({ entry }) => entry.json).join('\n'));
  const starts: number[] = [];
  let at = 0;
  for (const { entry } of adds) {
    starts.push(at);
    at += Buffer.byteLength(entry.json) + 1;
  }
  const made: number[] = [];
  const tree = new TreeIndex();
  const make = (i: number): AnyEntry => {
    made.push(i);
    const up = parentAt[i]!;
    const end = starts[i]! + Buffer.byteLength(adds[i]!.entry.json);
    return new ReplayedEntry(
      i + 1,
      i + 1,
      ids[i]!,
      up < 0 ? null : ids[up]!,
      adds[i]!.entry.type,
      file,
      starts[i]!,
      end,
    ) as unknown as AnyEntry;
  };
  const readPayload = <T>(i: number, read: PayloadBytesReader<T>): T =>
    read(file, starts[i]!, starts[i]! + Buffer.byteLength(adds[i]!.entry.json));
  const typeAt = (i: number) => adds[i]!.entry.type;
  expect(tree.addDeferred({ ids, parentAt, typeAt, make, ...(withBytes ? { readPayload } : {}) })).toBe(true);
  const parsed = new Map<string, AnyEntry>();
  for (const [i, { entry }] of adds.entries()) {
    const up = parentAt[i]!;
    const base = {
      kind: 'entry',
      seq: i + 1,
      timestamp: i + 1,
      id: ids[i]!,
      parentId: up < 0 ? null : ids[up]!,
      type: entry.type,
    };
    parsed.set(ids[i]!, {
      ...base,
      get payload() {
        return JSON.parse(entry.json);
      },
    } as unknown as AnyEntry);
  }
  return { tree, ids, made, parsed };
}

/** The state, or the error's message when folding throws (a payload the fold cannot read). */
function outcome(fold: () => TaskState): TaskState | string {
  try {
    return { ...fold() };
  } catch (error) {
    return `throws: ${(error as Error).constructor.name}`;
  }
}

const pathOf = (built: Built, leaf: string): AnyEntry[] => {
  const path: AnyEntry[] = [];
  for (
    let at: AnyEntry | undefined = built.parsed.get(leaf);
    at;
    at = at.parentId === null ? undefined : built.parsed.get(at.parentId)
  )
    path.unshift(at);
  return path;
};

describe("the screen's task state over entries built when read", () => {
  it('is the fold of every parsed entry, at every head it moves to', () => {
    fc.assert(
      fc.property(
        session,
        fc.array(fc.nat(), { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        (adds, heads, withBytes) => {
          const built = build(adds, withBytes);
          const fold = new TaskStateFold();
          for (const head of [built.ids.length - 1, ...heads]) {
            const leaf = built.ids[head % built.ids.length]!;
            const lazy = outcome(() => fold.follow(built.tree.pathTo(leaf)));
            expect(lazy).toEqual(outcome(() => taskStateOf(pathOf(built, leaf))));
            if (typeof lazy === 'string') return;
          }
        },
      ),
      { numRuns: fcRuns() },
    );
  });

  it('builds only the calls, results, prompts after a round, answers that may hold a plan and the head', () => {
    fc.assert(
      fc.property(session, (adds) => {
        const built = build(adds);
        const path = built.tree.pathTo(built.ids.at(-1)!);
        const state = outcome(() => new TaskStateFold().follow(path));
        if (typeof state === 'string') return;
        const onPath = new Set(pathOf(built, built.ids.at(-1)!).map((e) => Number(e.id.slice(2)) - 1));
        const headAt = built.ids.length - 1;
        let afterRound = false;
        for (let i = 0; i < adds.length; i++) {
          if (!onPath.has(i)) {
            expect(built.made).not.toContain(i);
            continue;
          }
          const { type, json } = adds[i]!.entry;
          // A plain answer with no plan in it is read where it lies.
          const plainAnswer =
            type === 'assistant' && !json.includes('\\u') && !/\[[ xX]\]|plan/i.test(json) && !json.includes('"x"');
          const passedOver = type === 'approval' || type === 'compaction' || (type === 'user' && !afterRound);
          if ((passedOver || plainAnswer) && i !== headAt) expect(built.made).not.toContain(i);
          if (type === 'assistant') afterRound = (JSON.parse(json) as { toolCalls: unknown[] }).toolCalls.length > 0;
          if (type === 'user' && !JSON.parse(json).steered) afterRound = false;
        }
      }),
      { numRuns: fcRuns() },
    );
  });

  it('builds none of a 2,000-entry path of prompts and plain answers but its head, and parses no answer', () => {
    const adds = Array.from({ length: 2000 }, (_, i) => ({
      entry:
        i % 2 === 0
          ? { type: 'user', json: JSON.stringify({ text: `question ${i}` }) }
          : { type: 'assistant', json: JSON.stringify({ text: `answer ${i}`, toolCalls: [], model: 'm' }) },
      branch: null,
    }));
    const built = build(adds);
    const path = built.tree.pathTo(built.ids.at(-1)!);
    expect(new TaskStateFold().follow(path)).toEqual(taskStateOf(pathOf(built, built.ids.at(-1)!)));
    expect(built.made).toEqual([1999]);
    // Built, and read where their bytes lie all the same: no answer is parsed.
    const again = build(adds, false);
    expect(new TaskStateFold().follow(again.tree.pathTo(again.ids.at(-1)!))).toEqual(
      taskStateOf(pathOf(again, again.ids.at(-1)!)),
    );
    expect(again.made.length).toBe(1000);
    for (const at of again.made) expect(payloadIsUnparsed(again.tree.get(again.ids[at]!)!)).toBe(true);
  });

  it('is the same over a session file read back into columns, as its first open reads it', () => {
    const store = emptyStore(fastOps);
    const answer = (text: string, calls = false) =>
      append(store, 'assistant', {
        text,
        toolCalls: calls ? [{ id: 'c1', name: 'update_plan', input: {} }] : [],
        model: 'm',
        finishReason: calls ? 'tool_calls' : 'stop',
      } as never);
    append(store, 'user', { text: 'start' } as never);
    answer('PLAN:\n- read\n- write');
    answer('still reading');
    answer('calling', true);
    append(store, 'user', { text: 'and tests', steered: true } as never);
    append(store, 'tool_intent', {
      callId: 'c1',
      tool: 'update_plan',
      input: {
        plan: [
          { step: 'read', status: 'completed' },
          { step: 'write', status: 'in_progress' },
        ],
      },
      subject: 'plan',
    } as never);
    append(store, 'tool_result', { callId: 'c1', tool: 'update_plan', outcome: 'ok', content: 'plan set' } as never);
    answer("- [ ] ignored: the plan is update_plan's now");
    answer('done with \u0070lan words');
    const path = store.path;
    const expected = taskStateOf(store.tree.pathTo(currentHead(store).entryId));
    store.close();
    const reopened = SessionStore.open(path, {
      clock: fixedClock(2_000_000_000_000),
      random: seededRandom(4),
      readOnly: true,
      asideMinBytes: 0,
      asideWorker: false,
    });
    try {
      const state = new TaskStateFold().follow(reopened.tree.pathTo(currentHead(reopened).entryId));
      expect(state).toEqual(expected);
      expect(state.rounds).toBe(1);
      expect(state.source).toBe('tool');
    } finally {
      reopened.close();
    }
  });
});
