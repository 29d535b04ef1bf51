import type { CompletionItem } from '../tui/prompt/completion-target';
import { listProfiles, type ProfilePlaces } from './agent-profiles';
import { listSessionFiles } from './session-files';
import { BUILT_IN_THEMES } from '../tui/style/theme';

/** A list read again when asked for after this long (profiles and sessions change while tole runs). */
const FRESH_FOR_MS = 5_000;
/** The popup lists this many sessions at most (newest first). */
const MAX_SESSIONS = 200;

/** Where `/agent ` and `/resume ` find what they complete to. */
interface ArgumentPlaces {
  readonly profiles: ProfilePlaces;
  readonly sessionsDir: string;
  readonly nowMs?: () => number;
}

/**
 * The values a command's argument completes to: `/agent ` the profile names (and `-` for none),
 * `/theme ` the built-in themes (the popup adds the workspace's .json files),
 * `/resume ` the sessions (id, with the folder and day they started). Each list is read when first
 * asked for, and again once it is a few seconds old, so a key never waits on more than one read.
 */
export function argumentCompletions(places: ArgumentPlaces): (command: string) => readonly CompletionItem[] | null {
  const nowMs = places.nowMs ?? Date.now;
  const cached = new Map<string, { atMs: number; items: readonly CompletionItem[] }>();
  const readers: Record<string, () => readonly CompletionItem[]> = {
    agent: () => [
      ...listProfiles(places.profiles).map((profile) => ({
        insert: profile.name,
        label: profile.name,
        detail: `${profile.from} profile`,
      })),
      { insert: '-', label: '-', detail: 'no agent profile' },
    ],
    theme: () => BUILT_IN_THEMES.map((name) => ({ insert: name, label: name, detail: 'built-in theme' })),
    resume: () =>
      listSessionFiles(places.sessionsDir)
        .slice(0, MAX_SESSIONS)
        .map(({ header }) => ({
          insert: header.id,
          label: header.id,
          detail: `${header.cwd} · ${new Date(header.createdAt).toISOString().slice(0, 16).replace('T', ' ')}`,
        })),
  };
  return (command) => {
    const read = readers[command];
    if (read === undefined) return null;
    const known = cached.get(command);
    if (known !== undefined && nowMs() - known.atMs < FRESH_FOR_MS) return known.items;
    let items: readonly CompletionItem[];
    try {
      items = read();
    } catch {
      items = [];
    }
    cached.set(command, { atMs: nowMs(), items });
    return items;
  };
}
