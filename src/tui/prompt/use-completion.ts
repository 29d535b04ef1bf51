import { useEffect, useSyncExternalStore } from 'react';
import { type CompletionList, type CompletionSources, completesPath, completionList } from './completion-items';
import type { UiState } from '../screen/ui-state';
import { popupChoice } from '../screen/ui-state';

/** Something whose answers come later: the path index, the server's models. */
interface Answers {
  subscribe(listener: () => void): () => void;
}

const NO_ANSWERS = { subscribe: () => () => {}, version: () => 0 };

/** Counts a source's new answers, so the popup is drawn again when one lands. */
function useAnswersVersion(source: Answers | null): number {
  const versions = source ? answerVersions(source) : NO_ANSWERS;
  return useSyncExternalStore(versions.subscribe, versions.version);
}

const counters = new WeakMap<Answers, { subscribe: (l: () => void) => () => void; version: () => number }>();

function answerVersions(paths: Answers) {
  let known = counters.get(paths);
  if (known === undefined) {
    let version = 0;
    paths.subscribe(() => {
      version++;
    });
    known = { subscribe: (listener) => paths.subscribe(listener), version: () => version };
    counters.set(paths, known);
  }
  return known;
}

/**
 * The completion popup for the prompt as it is (null: nothing to complete, the prompt does not
 * hold the keyboard, or Esc closed it). A path being completed asks the index for a fresh look
 * when the last is old; its answer lands without holding up a key, as the server's models do.
 */
export function useCompletion(ui: UiState, sources: CompletionSources, promptHasKeys: boolean): CompletionList | null {
  useAnswersVersion(sources.paths);
  useAnswersVersion(sources.models ?? null);
  const list = promptHasKeys && !popupChoice(ui).closed ? completionList(ui.editor, sources) : null;
  const completingPath = promptHasKeys && completesPath(ui.editor.value, ui.editor.cursor);
  useEffect(() => {
    if (completingPath) sources.paths?.refresh();
  }, [completingPath, sources.paths]);
  return list;
}
