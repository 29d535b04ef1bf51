import { realpathSync } from 'node:fs';
import { currentHead } from '../core/session/cursor';
import { PromptHistory } from '../core/storage/prompt-history';
import type { SessionStore } from '../core/storage/session-store';
import { toleHome } from './tole-home';

/** The screen's prompt history: what ↑ brings back (read when the screen asks), and where a sent prompt is kept. */
interface ScreenHistory {
  readonly prompts: () => readonly string[];
  readonly remember: (prompt: string) => void;
}

const USER: ReadonlySet<string> = new Set(['user']);

/**
 * The workspace's prompt history (PromptHistory, under tole's home) with the opened session's own
 * prompts last, so ↑ brings those back first: a resumed session's prompts before the others
 * typed in this folder. The session's prompts are those on the path to its head now, read when
 * `prompts` is first called (the screen does so after its first frame: a long session's prompts
 * are not parsed before it). A history that cannot be read (a folder tole may not write) is none:
 * the screen opens without it.
 */
export function screenHistory(env: NodeJS.ProcessEnv, cwd: string, store: SessionStore): ScreenHistory | undefined {
  let history: PromptHistory;
  try {
    history = PromptHistory.open(toleHome(env), realpathSync(cwd));
  } catch {
    return undefined;
  }
  const head = currentHead(store).entryId;
  const workspace = history.prompts;
  let prompts: readonly string[] | null = null;
  const read = (): readonly string[] => {
    const own = store.tree
      .pathEntriesOfTypes(head, USER)
      .flatMap((entry) => (entry.type === 'user' ? [entry.payload.text] : []));
    const mine = new Set(own);
    return [...workspace.filter((prompt) => !mine.has(prompt)), ...own];
  };
  return {
    prompts: () => {
      prompts ??= read();
      return prompts;
    },
    remember: (prompt) => history.append(prompt),
  };
}
