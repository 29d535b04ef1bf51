import { describe, expect, it } from 'vitest';
import { INITIAL_UI, uiReducer, type UiAction, type UiState } from '../../src/tui/screen/ui-state';

const run = (state: UiState, ...actions: UiAction[]): UiState => actions.reduce(uiReducer, state);
const typed = (history: string[], value: string): UiState =>
  run({ ...INITIAL_UI, history }, { type: 'edit', editor: { value, cursor: value.length } });

describe('Ctrl-R in the prompt', () => {
  it('brings back the newest earlier prompt holding what is typed (any case), then older ones', () => {
    const history = ['git status', 'fix the Test', 'run tests', 'git push', 'explain'];
    const once = run(typed(history, 'git'), { type: 'history-search' });
    expect(once.editor.value).toBe('git push');
    const twice = run(once, { type: 'history-search' });
    expect(twice.editor.value).toBe('git status');
    // Nothing older holds it: unchanged.
    expect(run(twice, { type: 'history-search' })).toBe(twice);
    expect(run(typed(history, 'TEST'), { type: 'history-search' }).editor.value).toBe('run tests');
  });

  it('↓ past the newest goes back to what was typed', () => {
    const history = ['alpha', 'beta', 'gamma'];
    const found = run(typed(history, 'al'), { type: 'history-search' });
    expect(found.editor.value).toBe('alpha');
    const back = run(
      found,
      { type: 'history', direction: 1 },
      { type: 'history', direction: 1 },
      {
        type: 'history',
        direction: 1,
      },
    );
    expect(back.editor.value).toBe('al');
  });

  it('an edited match starts a new search from the newest prompt', () => {
    const history = ['make build', 'make test', 'deploy'];
    const found = run(typed(history, 'make'), { type: 'history-search' });
    expect(found.editor.value).toBe('make test');
    const edited = run(found, { type: 'edit', editor: { value: 'deploy', cursor: 6 } });
    // The prompt holds an earlier prompt itself: it is skipped, nothing else holds it.
    expect(run(edited, { type: 'history-search' })).toBe(edited);
  });
});
