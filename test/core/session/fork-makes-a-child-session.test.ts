import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { seededRandom, systemClock } from '../../../src/core/clock';
import { HEAD_KEY, MAIN_LANE, NS } from '../../../src/core/registers/namespaces';
import { checkout, currentHead, laneLeaf } from '../../../src/core/session/cursor';
import { forkSession } from '../../../src/core/session/fork';
import { labelOf, setLabel } from '../../../src/core/session/labels';
import { SessionStore } from '../../../src/core/storage/session-store';
import { harnessOn, messagesOf, startHarness } from '../hooks/agent-harness';

const storeOptions = { clock: systemClock, random: seededRandom(99) };

describe('fork', () => {
  it('makes a new session file whose header names the parent, holding a copy of the path to the entry', async () => {
    const h = await startHarness({ replies: [{ text: 'one' }, { text: 'two' }, { text: 'three' }] });
    for (const p of ['first', 'second', 'third']) await h.run(p);
    const second = h.pathOf('assistant')[1]!;
    setLabel(h.store, second.id, 'before the refactor');
    const parentBytes = readFileSync(h.store.path);
    const parentSeq = h.store.lastSeq;

    const fork = forkSession(h.store, second.id, h.sessionsDir, storeOptions);
    expect(fork.path).not.toBe(h.store.path);
    expect(fork.header).toMatchObject({
      cwd: h.store.header.cwd,
      parent: { sessionId: h.store.header.id, entryId: second.id, path: h.store.path },
    });
    fork.close();

    // The copy replays: same ids and payloads along the path, lane main and the head on the copy of the entry.
    const reopened = SessionStore.open(fork.path, storeOptions);
    const expected = h.store.tree
      .pathTo(second.id)
      .map(({ id, parentId, type, payload, timestamp }) => ({ id, parentId, type, payload, timestamp }));
    expect(
      reopened.tree
        .pathTo(second.id)
        .map(({ id, parentId, type, payload, timestamp }) => ({ id, parentId, type, payload, timestamp })),
    ).toEqual(expected);
    expect(reopened.tree.size).toBe(expected.length);
    expect(laneLeaf(reopened, MAIN_LANE)).toBe(second.id);
    expect(reopened.registers.get(NS.laneHead, HEAD_KEY)).toEqual({ lane: MAIN_LANE, entryId: second.id });
    expect(labelOf(reopened, second.id)).toBe('before the refactor');
    expect(reopened.usage).toEqual([]); // spend stays with the parent

    // The parent is unchanged.
    expect(readFileSync(h.store.path)).toEqual(parentBytes);
    expect(h.store.lastSeq).toBe(parentSeq);

    // A turn in the fork goes on from the entry: the model sees the first two exchanges, not the third.
    h.server.push({ text: 'forked answer' });
    const child = harnessOn(reopened, h.server, h.root, h.sessionsDir);
    expect(await child.run('another way')).toEqual({ outcome: 'done', text: 'forked answer' });
    const sent = messagesOf(h.chatRequests().at(-1)!).map((m) => m.content);
    expect(sent).toEqual(['You are tole under test.', 'first', 'one', 'second', 'two', 'another way']);
    expect(currentHead(reopened).lane).toBe(MAIN_LANE);
    reopened.close();
  });

  it('forks from an entry on a side branch', async () => {
    const h = await startHarness({ replies: [{ text: 'one' }, { text: 'two' }, { text: 'two, again' }] });
    await h.run('first');
    await h.run('second');
    checkout(h.store, h.pathOf('assistant')[0]!.id);
    await h.run('second, differently');
    const branchTip = currentHead(h.store).entryId!;
    const fork = forkSession(h.store, branchTip, h.sessionsDir, storeOptions);
    const texts = fork.tree
      .pathTo(branchTip)
      .map((e) => (e.type === 'user' || e.type === 'assistant' ? e.payload.text : e.type));
    expect(texts).toEqual(['first', 'one', 'second, differently', 'two, again']);
    expect(fork.tree.size).toBe(4); // the other branch stays behind
    fork.close();
  });
});
