import { EMPTY_TASK_STATE } from '../../src/core/session/task-state';
import { describe, expect, it, vi } from 'vitest';
import { AppendBatch } from '../../src/core/session/cursor';
import { registerLines } from '../../src/tui/overlays/register-lines';
import { lineWidth } from '../../src/tui/style/styled-line';
import { emptyStore, fastOps } from './session-fixture';

// Counts the one-line previews worked out of entry texts (the registers pane's lane line shows its leaf's).
const previews = vi.hoisted(() => ({ texts: [] as string[] }));
vi.mock('../../src/tui/text/format', async (original) => {
  const format = await original<typeof import('../../src/tui/text/format')>();
  return {
    ...format,
    plainPreview: (text: string) => {
      previews.texts.push(text);
      return format.plainPreview(text);
    },
  };
});

describe("the registers pane's lane line", () => {
  it("works out its leaf's preview once per entry, cut, not from the whole answer on every frame", () => {
    const store = emptyStore(fastOps);
    const answer = Array.from({ length: 2000 }, (_, i) => `word${i}`).join(' ');
    const batch = new AppendBatch(store);
    batch.entry('user', { text: 'say a lot' });
    batch.entry('assistant', { text: answer, toolCalls: [], model: 'm', finishReason: 'stop' });
    store.commit(batch.build());

    const first = registerLines(store, 40, EMPTY_TASK_STATE);
    const again = registerLines(store, 40, EMPTY_TASK_STATE);
    const narrower = registerLines(store, 30, EMPTY_TASK_STATE);

    expect(previews.texts.filter((text) => text === answer)).toHaveLength(1);
    const lane = first.find((line) => line[0]?.text.startsWith('lane'))!;
    expect(lane.map((s) => s.text).join('')).toMatch(/^lane {4}main → e_\d+ ◀ {2}word0 word1.*…$/);
    expect(lineWidth(lane)).toBe(40);
    expect(again).toEqual(first);
    const narrowLane = narrower.find((line) => line[0]?.text.startsWith('lane'))!;
    expect(lineWidth(narrowLane)).toBe(30);
    store.close();
  });
});
