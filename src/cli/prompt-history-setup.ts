import { realpathSync } from 'node:fs';
import { currentHead } from '../core/session/cursor';
import { PromptHistory } from '../core/storage/prompt-history';
import type { SessionStore } from '../core/storage/session-store';
import { toleHome } from './tole-home';

/** The screen's prompt history: what ↑ brings back, and where a sent prompt is kept. */
interface ScreenHistory {
  readonly prompts: readonly string[];
  readonly remember: (prompt: string) => void;
}

/**
 * The workspace's prompt history (PromptHistory, under tole's home) with the opened session's own
 * prompts last, so ↑ brings those back first: a resumed session's prompts before the others
 * typed in this folder. A history that cannot be read (a folder tole may not write) is none:
 * the screen opens without it.
 */
export function screenHistory(env: NodeJS.ProcessEnv, cwd: string, store: SessionStore): ScreenHistory | undefined {
  let history: PromptHistory;
  try {
    history = PromptHistory.open(toleHome(env), realpathSync(cwd));
  } catch {
    return undefined;
  }
  const own = store.tree
    .pathTo(currentHead(store).entryId)
    .flatMap((entry) => (entry.type === 'user' ? [entry.payload.text] : []));
  const mine = new Set(own);
  return {
    prompts: [...history.prompts.filter((prompt) => !mine.has(prompt)), ...own],
    remember: (prompt) => history.append(prompt),
  };
}
