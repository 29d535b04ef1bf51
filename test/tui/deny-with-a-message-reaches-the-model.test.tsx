/**
 * `d` at the approval box denies the call with a message the user types: the message is the
 * call's result in the next request to the model, it is committed with the approval entry (so
 * the transcript, replay and export show it), and Esc goes back to the box's keys without denying.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { exportLeaf, exportMarkdown } from '../../src/core/session/export';
import { realAgent } from './agent-fixture';
import { KEYS, renderScreen, stripAnsi, type Screen } from './harness';
import { emptyStore } from './session-fixture';

let screen: Screen | undefined;
afterEach(() => screen?.unmount());

describe('deny with a message', () => {
  it('sends what the user typed to the model as the result of the denied call', async () => {
    const store = emptyStore();
    const fixture = realAgent(store, [
      {
        chunks: ['Writing the notes.'],
        toolCalls: [
          { id: 'call_w', name: 'write_file', arguments: JSON.stringify({ path: 'notes.md', content: 'x\n' }) },
        ],
      },
      { chunks: ['Understood: docs/ it is.'] },
    ]);
    screen = renderScreen({ store, agent: fixture.agent, approvals: fixture.approvals, policy: fixture.policy });
    await screen.type('write the notes');
    await screen.press(KEYS.enter);
    await screen.waitFor('approve?');

    await screen.press('d');
    await screen.waitFor('deny, telling the model:');
    // Esc goes back to the keys; nothing is denied.
    await screen.press(KEYS.escape);
    await screen.waitFor('n deny (type why, ⏎)');
    await screen.press('d');
    await screen.waitFor('deny, telling the model:');
    await screen.type('put it in docs/ insteadd');
    await screen.press('\u007f');
    await screen.waitFor('put it in docs/ instead▏');
    await screen.press(KEYS.enter);
    await screen.waitFor('Understood: docs/ it is.');

    expect(existsSync(join(fixture.workspace, 'notes.md'))).toBe(false);
    const next = JSON.stringify(fixture.provider.requests[1]?.messages);
    expect(next).toContain('denied by the user, who says: put it in docs/ instead');
    expect(readFileSync(store.path, 'utf8')).toContain('"message":"put it in docs/ instead"');
    expect(stripAnsi(screen.frame())).toContain('denied by you, saying:');
    expect(exportMarkdown(store, exportLeaf(store, {}))).toContain('denied by user*: put it in docs/ instead');
  });
});
