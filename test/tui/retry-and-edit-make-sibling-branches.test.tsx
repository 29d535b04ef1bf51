import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AnyEntry } from '../../src/core/tree/entry-types';
import { realAgent } from './agent-fixture';
import { KEYS, pane, renderScreen, stripAnsi, type Screen } from './harness';
import { emptyStore } from './session-fixture';

let screen: Screen | undefined;
afterEach(() => screen?.unmount());

function ofType(entries: Iterable<AnyEntry>, type: AnyEntry['type']): AnyEntry[] {
  return [...entries].filter((e) => e.type === type);
}

async function asked(answers: string[]) {
  const store = emptyStore();
  const fixture = realAgent(
    store,
    answers.map((a) => ({ chunks: [a] })),
  );
  screen = renderScreen({ store, agent: fixture.agent, approvals: fixture.approvals, policy: fixture.policy });
  await screen.type('favourite colour?');
  await screen.press(KEYS.enter);
  await screen.waitFor(answers[0]!);
  await vi.waitFor(() => expect(stripAnsi(screen!.frame())).toMatch(/Final · seq/));
  return { store, fixture, screen };
}

describe('asking again and editing a prompt, as sibling branches', () => {
  it('r on an answer in the tree asks again from its prompt; the old answer stays beside the new one', async () => {
    const { store, screen: s } = await asked(['Blue.', 'Green.']);
    await s.press(KEYS.tab);
    await s.waitFor('r retry');
    await s.press('r');
    await s.waitFor('asking again from e_1');
    const frame = await s.waitFor('Green.');
    expect(pane(frame, 'tree')).toContain('Blue.');
    const answers = ofType(store.tree.all(), 'assistant');
    expect(answers.map((a) => [a.parentId, (a.payload as { text: string }).text])).toEqual([
      ['e_1', 'Blue.'],
      ['e_1', 'Green.'],
    ]);
    expect(ofType(store.tree.all(), 'user')).toHaveLength(1);
  });

  it('/retry asks again from the last answer', async () => {
    const { store, screen: s } = await asked(['Blue.', 'Red.']);
    await s.type('/retry');
    await s.press(KEYS.enter);
    await s.waitFor('Red.');
    expect(ofType(store.tree.all(), 'assistant').map((a) => a.parentId)).toEqual(['e_1', 'e_1']);
  });

  it('e on a prompt puts it in the editor; sent, the edit is a sibling of the old prompt, and the old branch stays', async () => {
    const { store, screen: s } = await asked(['Blue.', 'A cat.']);
    await s.press(KEYS.tab);
    await s.press('k');
    await s.press('e');
    const editing = stripAnsi(await s.waitFor('✎ editing e_1'));
    expect(editing).toContain('❯ favourite colour?');
    await s.press(KEYS.ctrlC);
    await vi.waitFor(() => expect(stripAnsi(s.frame())).not.toContain('✎ editing'));
    expect(s.quit).not.toHaveBeenCalled();
    await s.press(KEYS.tab);
    await s.press('k');
    await s.press('e');
    await s.waitFor('✎ editing e_1');
    await s.press('\x15');
    await s.type('favourite animal?');
    await s.waitFor('✎ editing e_1');
    await s.press(KEYS.enter);
    await s.waitFor('A cat.');
    const prompts = ofType(store.tree.all(), 'user');
    expect(prompts.map((p) => [p.parentId, (p.payload as { text: string }).text])).toEqual([
      [null, 'favourite colour?'],
      [null, 'favourite animal?'],
    ]);
    expect(ofType(store.tree.all(), 'assistant')).toHaveLength(2);
  });

  it('e on an answer says it edits prompts only', async () => {
    const { screen: s } = await asked(['Blue.']);
    await s.press(KEYS.tab);
    await s.press('e');
    await s.waitFor('e edits a prompt of yours');
  });
});
