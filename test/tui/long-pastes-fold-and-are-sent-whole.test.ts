import { describe, expect, it } from 'vitest';
import { expandPastes, foldPaste, pastedText } from '../../src/tui/prompt/folded-paste';
import { INITIAL_UI, uiReducer } from '../../src/tui/screen/ui-state';

const lines = (n: number): string => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\r\n');

describe('a long paste in the prompt', () => {
  it('shows as one fold with its line count, where the cursor was, and expands to the paste as typed', () => {
    const typed = uiReducer(INITIAL_UI, { type: 'edit', editor: { value: 'see  please', cursor: 4 } });
    const pasted = pastedText(lines(200));
    const state = uiReducer(typed, { type: 'paste-folded', text: pasted });
    expect(state.editor.value).toBe('see [pasted 200 lines #1] please');
    expect(expandPastes(state.editor.value, state.pastes)).toBe(`see ${lines(200).replace(/\r\n/g, '\n')} please`);
    const again = uiReducer(state, { type: 'paste-folded', text: pastedText(`${lines(12)}\n`) });
    expect(again.editor.value).toContain('[pasted 12 lines #2]');
    // Sent: the folds are gone with the prompt.
    expect(uiReducer(again, { type: 'submitted', text: 'x' }).pastes).toEqual([]);
  });

  it('a fold deleted from the prompt sends nothing of its paste; one typed by hand for a paste never made stays text', () => {
    const fold = foldPaste('a\nb', 1);
    expect(expandPastes('nothing left', [fold])).toBe('nothing left');
    expect(expandPastes('[pasted 2 lines #7]', [fold])).toBe('[pasted 2 lines #7]');
  });
});
