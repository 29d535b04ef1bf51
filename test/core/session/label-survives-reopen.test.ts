import { describe, expect, it } from 'vitest';
import { seededRandom, systemClock } from '../../../src/core/clock';
import { labelOf, labels, setLabel } from '../../../src/core/session/labels';
import { SessionStore } from '../../../src/core/storage/session-store';
import { startHarness } from '../hooks/agent-harness';

const storeOptions = { clock: systemClock, random: seededRandom(5) };

describe('labels', () => {
  it('a label set on an entry survives reopening the session, and empty text removes it for good', async () => {
    const h = await startHarness({ replies: [{ text: 'one' }, { text: 'two' }] });
    await h.run('first');
    await h.run('second');
    const [first, second] = h.pathOf('user');
    expect(setLabel(h.store, first!.id, '  working   version ')).toBe('working version');
    setLabel(h.store, second!.id, 'try two');
    h.store.close();

    const reopened = SessionStore.open(h.store.path, storeOptions);
    expect(labelOf(reopened, first!.id)).toBe('working version');
    expect([...labels(reopened)]).toEqual([
      [first!.id, 'working version'],
      [second!.id, 'try two'],
    ]);
    expect(setLabel(reopened, second!.id, '')).toBeNull();
    reopened.close();

    const again = SessionStore.open(h.store.path, storeOptions);
    expect(labelOf(again, second!.id)).toBeUndefined();
    expect(labelOf(again, first!.id)).toBe('working version');
    again.close();
  });

  it('setting the same label twice commits nothing new', async () => {
    const h = await startHarness({ replies: [{ text: 'one' }] });
    await h.run('first');
    const [entry] = h.pathOf('assistant');
    setLabel(h.store, entry!.id, 'done');
    const seq = h.store.lastSeq;
    setLabel(h.store, entry!.id, 'done');
    expect(h.store.lastSeq).toBe(seq);
  });
});
