import { EMPTY_EDITOR, insertText } from './line-editor';

/** A paste of more lines than this is shown folded in the prompt. */
export const FOLD_PASTE_LINES = 10;

/** A paste shown as one line in the prompt, `[pasted 200 lines #1]`, and sent whole. */
export interface FoldedPaste {
  readonly placeholder: string;
  readonly text: string;
}

/** The text a paste puts in the prompt: as the prompt's editor would take it (CR LF as LF, no controls). */
export function pastedText(text: string): string {
  return insertText(EMPTY_EDITOR, text).value;
}

export function lineCount(text: string): number {
  return text.replace(/\n$/, '').split('\n').length;
}

/** The fold for a paste that is the `count`th folded one in this prompt. */
export function foldPaste(text: string, count: number): FoldedPaste {
  return { placeholder: `[pasted ${lineCount(text)} lines #${count}]`, text };
}

/** The prompt with each fold still in it replaced by its paste: what is sent. */
export function expandPastes(value: string, pastes: readonly FoldedPaste[]): string {
  let out = value;
  for (const paste of pastes) out = out.split(paste.placeholder).join(paste.text);
  return out;
}
