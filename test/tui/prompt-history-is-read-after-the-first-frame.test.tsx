/**
 * A resumed session's prompts (every user prompt on its path: 50,000 in a long one) are read for
 * ↑ and Ctrl-R after the screen's first frame, not before it, and ↑ brings back the same prompts
 * as when they were read first: a key that comes before the read reads them then.
 */
import { join } from 'node:path';
import { Text } from 'ink';
import { render } from 'ink-testing-library';
import { describe, expect, it, vi } from 'vitest';
import { screenHistory } from '../../src/cli/prompt-history-setup';
import { seededRandom } from '../../src/core/clock';
import { checkout, currentHead } from '../../src/core/session/cursor';
import { PromptHistory } from '../../src/core/storage/prompt-history';
import { SessionStore } from '../../src/core/storage/session-store';
import { useUiState, type HistorySource } from '../../src/tui/screen/use-ui-state';
import type { UiAction, UiState } from '../../src/tui/screen/ui-state';
import { append, fastOps, fixedClock } from './session-fixture';
import { tempDirForTest } from '../support/after-the-test';

interface Probe {
  current?: () => UiState;
  dispatch?: (action: UiAction) => void;
}

function Screen({ history, probe }: { history: HistorySource; probe: Probe }) {
  const { ui, current, dispatch } = useUiState(history);
  probe.current = current;
  probe.dispatch = dispatch;
  return <Text>{`${ui.history.length} prompts`}</Text>;
}

describe('the prompt history of the screen', () => {
  it('is read after the first frame, and holds then what the list would have', async () => {
    const read = vi.fn(() => ['one', 'two', 'three']);
    const probe: Probe = {};
    const shown = render(<Screen history={read} probe={probe} />);
    expect(shown.lastFrame()).toBe('0 prompts');
    expect(read).not.toHaveBeenCalled();
    await vi.waitFor(() => expect(shown.lastFrame()).toBe('3 prompts'), { timeout: 10_000 });
    expect(read).toHaveBeenCalledTimes(1);
    probe.dispatch!({ type: 'history', direction: -1 });
    expect(probe.current!().editor.value).toBe('three');
    shown.unmount();
  });

  it('is read at the first key when that comes first: ↑ and Ctrl-R see every prompt', () => {
    const read = vi.fn(() => ['make build', 'make test', 'deploy']);
    const probe: Probe = {};
    const shown = render(<Screen history={read} probe={probe} />);
    probe.dispatch!({ type: 'edit', editor: { value: 'make', cursor: 4 } });
    probe.dispatch!({ type: 'history-search' });
    expect(probe.current!().editor.value).toBe('make test');
    shown.unmount();

    const again: Probe = {};
    const other = render(<Screen history={() => ['a', 'b']} probe={again} />);
    // Read by the state's reader too (the key handler looks at it before it dispatches).
    expect(again.current!().history).toEqual(['a', 'b']);
    again.dispatch!({ type: 'history', direction: -1 });
    again.dispatch!({ type: 'history', direction: -1 });
    expect(again.current!().editor.value).toBe('a');
    other.unmount();
    expect(read).toHaveBeenCalledTimes(1);
  });

  it("holds the workspace's prompts, then the session's on the path to the head it was opened at", () => {
    const dir = tempDirForTest('tole-history-');
    const home = join(dir, 'home');
    const store = SessionStore.create(dir, { clock: fixedClock(), random: seededRandom(3), cwd: dir, ops: fastOps });
    const workspace = PromptHistory.open(home, dir);
    for (const prompt of ['older', 'fix the tests', 'elsewhere']) workspace.append(prompt);
    const first = append(store, 'user', { text: 'fix the tests' });
    append(store, 'assistant', { text: 'ok', toolCalls: [], model: 'm', finishReason: 'stop' });
    const left = append(store, 'user', { text: 'on a branch left behind' });
    checkout(store, first);
    append(store, 'user', { text: 'then this' });
    const history = screenHistory({ TOLE_HOME: home }, dir, store)!;
    // Prompts sent after the start are the screen's own (it adds them as they are sent).
    checkout(store, left);
    append(store, 'user', { text: 'sent later' });
    const expected = ['older', 'elsewhere', 'fix the tests', 'then this'];
    expect(history.prompts()).toEqual(expected);
    expect(history.prompts()).toBe(history.prompts());
    expect(currentHead(store).entryId).not.toBe(first);
    store.close();
  });
});
