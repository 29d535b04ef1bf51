import type { HookEvent } from '../hooks/hook-config';
import type { HookPayload } from '../hooks/hook-payload';
import { hookNotices, type HookOutcome, type HookRunOptions } from '../hooks/hook-runner';
import type { EntryPayloads } from '../tree/entry-types';
import type { AgentDeps } from './agent-deps';
import { AppendBatch } from './cursor';
import type { EventSink } from './events';

export type NoticePayload = EntryPayloads['notice'];

/** The event's own fields; the session id, cwd and model are filled in. */
export type HookFields = Omit<HookPayload, 'event' | 'session_id' | 'cwd' | 'model'>;

/** Runs the event's hooks, when the host configured any; null when there are none. The next checkpoint then scans. */
export async function runHooks(
  deps: AgentDeps,
  model: string,
  event: HookEvent,
  fields: HookFields,
  options: HookRunOptions,
): Promise<HookOutcome | null> {
  const { hooks } = deps;
  if (!hooks || !hooks.has(event)) return null;
  // A hook's command may change any file, which no call of tole's names: the next checkpoint
  // scans (told before and after, as for a call: a checkpoint taken meanwhile is not vouched for).
  deps.checkpoints?.rescan();
  const outcome = await hooks.run(
    { event, session_id: deps.store.header.id, cwd: deps.workspaceRoot, model, ...fields },
    options,
  );
  deps.checkpoints?.rescan();
  return outcome;
}

/** One notice per hook run, for the transcript. */
export function noticesOf(outcome: HookOutcome | null): NoticePayload[] {
  return outcome ? hookNotices(outcome) : [];
}

export function addNotices(batch: AppendBatch, notices: readonly NoticePayload[]): void {
  for (const notice of notices) batch.entry('notice', notice);
}

/** Tells the host about notices once they are committed. */
export function emitNotices(notices: readonly NoticePayload[], emit: EventSink): void {
  for (const notice of notices) emit({ type: 'notice', level: notice.level, text: notice.text });
}

/** Commits notices in a line of their own (hooks that run after the commit they belong to). */
export function commitNotices(deps: AgentDeps, notices: readonly NoticePayload[], emit: EventSink): void {
  if (notices.length === 0 || deps.store.readOnly) return;
  const batch = new AppendBatch(deps.store);
  addNotices(batch, notices);
  deps.store.commit(batch.build());
  emitNotices(notices, emit);
}
