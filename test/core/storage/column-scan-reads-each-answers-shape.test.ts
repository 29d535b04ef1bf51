/**
 * The first open's column scan reads each answer's shape (answer-shape.ts: did it call tools, may
 * its text hold a plan) while it has the payload's bytes at hand, and the store answers the task
 * state's question from that column instead of reading the bytes again. The column must be the
 * same function of the same bytes, entry for entry: a shape kept at the wrong place, or for a
 * payload the bytes reader leaves to `JSON.parse`, would show another plan or round count.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../src/core/clock';
import { currentHead } from '../../../src/core/session/cursor';
import { TaskStateFold, taskStateOf } from '../../../src/core/session/task-state';
import { shapeCode, shapeInBytes } from '../../../src/core/storage/answer-shape';
import { scanColumns } from '../../../src/core/storage/column-scan';
import { encodeCommit, headerCrc, storedCrcOf } from '../../../src/core/storage/line-codec';
import { ReplayedEntry } from '../../../src/core/storage/replayed-entry';
import { SessionStore } from '../../../src/core/storage/session-store';
import { ENTRY_TYPES } from '../../../src/core/tree/entry-types';
import { pathPayloadReader, pathTypeReader } from '../../../src/core/tree/tree-index';
import { fcRuns } from '../../support/fc-runs';
import { testSeed } from '../../support/storage-fixtures';
import { append, emptyStore, fastOps, fixedClock } from '../../tui/session-fixture';

const texts = fc.oneof(
  fc.constantFrom('PLAN:\n- read\n- write', '- [ ] one\n- [x] two', 'a plan', 'pLaN', 'p\nlan', 'nothing here', ''),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
);
const answers = fc.array(fc.record({ text: texts, calls: fc.boolean(), prompt: fc.boolean() }), {
  minLength: 1,
  maxLength: 25,
});

/** A session of prompts and answers as tole writes them; `raw` lines are appended after it as written. */
function sessionOf(list: readonly { text: string; calls: boolean; prompt: boolean }[], raw: readonly object[] = []) {
  const store = emptyStore(fastOps);
  for (const a of list) {
    if (a.prompt) append(store, 'user', { text: a.text } as never);
    append(store, 'assistant', {
      text: a.text,
      toolCalls: a.calls ? [{ id: 'c1', name: 'bash', input: { command: 'ls' } }] : [],
      model: 'm',
      finishReason: a.calls ? 'tool_calls' : 'stop',
    } as never);
  }
  const path = store.path;
  const last = store.tree.pathTo(currentHead(store).entryId).at(-1)!;
  store.close();
  const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
  let crc = storedCrcOf(Buffer.from(lines.at(-1)!))!;
  // Past every seq the session holds (three records at most per line).
  const seq = 3 * lines.length;
  let parent = last.id;
  raw.forEach((payload, k) => {
    const id = `e_${1000 + k}`;
    const record = `{"kind":"entry","seq":${seq + k + 1},"timestamp":7,"id":"${id}","parentId":"${parent}","type":"assistant","payload":${JSON.stringify(payload).replace('"text"', '"te\\u0078t"')}}`;
    const line = encodeCommit([], crc, record);
    appendFileSync(path, line.bytes);
    crc = line.crc;
    parent = id;
  });
  return path;
}

function reopen(path: string): SessionStore {
  return SessionStore.open(path, {
    clock: fixedClock(2_000_000_000_000),
    random: seededRandom(7),
    readOnly: true,
    asideMinBytes: 0,
    asideWorker: false,
  });
}

describe("the column scan's answer shapes", () => {
  it("hold, entry for entry, shapeCode of each answer's payload bytes and 0 for every other entry", () => {
    fc.assert(
      fc.property(answers, (list) => {
        const path = sessionOf(list, [{ text: 'a plan', toolCalls: [], model: 'm', finishReason: 'stop' }]);
        const file = readFileSync(path);
        const headerEnd = file.indexOf(0x0a);
        const scanned = scanColumns(file, headerEnd + 1, headerCrc(file.subarray(0, headerEnd)), (from) =>
          file.indexOf(0x0a, from),
        )!;
        const n = scanned.ids.length;
        expect(scanned.answerShapes).toHaveLength(n);
        const { starts, stops, types } = scanned.columns!;
        let read = 0;
        for (let at = 0; at < n; at++) {
          const start = starts[at]!;
          const end = stops[at]!;
          const assistant = ENTRY_TYPES[types[at]!] === 'assistant';
          expect(scanned.answerShapes![at]).toBe(assistant ? shapeCode(file, start, end) : 0);
          if (assistant && scanned.answerShapes![at] !== 0) read++;
        }
        // Every answer tole wrote is read; the one with an escaped key is left to JSON.parse.
        expect(read).toBe(list.length);
        expect(scanned.answerShapes![n - 1]).toBe(0);
      }),
      { seed: testSeed('answer shapes'), numRuns: fcRuns(0.3) },
    );
  });

  it('answer the task state through the opened store as the bytes of that very entry do', () => {
    fc.assert(
      fc.property(answers, (list) => {
        const path = sessionOf(list, [{ text: '- [ ] escaped', toolCalls: [{ id: 'c', name: 'bash', input: {} }] }]);
        const store = reopen(path);
        try {
          // The hand-written answer is past the head register's entry: the path to it.
          const head = store.tree.pathTo('e_1000');
          const typeAt = pathTypeReader(head);
          const payloadAt = pathPayloadReader(head);
          for (let i = 0; i < head.length; i++) {
            if (typeAt(i) !== 'assistant') continue;
            const own = payloadAt(i, (bytes, from, to) => shapeInBytes(bytes, from, to));
            expect(payloadAt(i, shapeInBytes)).toBe(own);
          }
          const folded = new TaskStateFold().follow(head);
          // Every entry built and parsed: the fold over plain objects.
          const built = head.map((e) => {
            if (e instanceof ReplayedEntry) void e.payload;
            return e;
          });
          expect(folded).toEqual(taskStateOf(built));
          expect(folded.rounds).toBe(list.filter((a) => a.calls).length + 1);
        } finally {
          store.close();
        }
      }),
      { seed: testSeed('answer shapes through the store'), numRuns: fcRuns(0.3) },
    );
  });
});
