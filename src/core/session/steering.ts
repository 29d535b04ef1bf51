import type { Attachment } from '../tools/attachment';
import type { AgentDeps } from './agent-deps';
import { attachmentsField, attachToPrompt } from './prompt-attachments';
import type { AppendBatch } from './cursor';
import type { EventSink } from './events';
import { addNotices, emitNotices, noticesOf, runHooks, type NoticePayload } from './turn-hooks';

/** A steering message on its way into the turn: its text, the userPrompt hooks' block (null: sent) and their notices. */
export interface Steering {
  readonly text: string;
  readonly blocked: string | null;
  /** The files its `@path` mentions attach. */
  readonly attachments: readonly Attachment[];
  readonly notices: readonly NoticePayload[];
}

/** Runs steering text through the userPrompt hooks, like a prompt. */
export async function steeringDraft(
  deps: AgentDeps,
  model: string,
  text: string,
  signal: AbortSignal,
): Promise<Steering> {
  const hook = await runHooks(
    deps,
    model,
    'userPrompt',
    { prompt: text, steered: true },
    { failClosed: false, signal },
  );
  const blocked = hook?.verdict === 'block' ? (hook.blockReason ?? 'blocked by a hook') : null;
  const attached = blocked === null ? await attachToPrompt(deps.workspaceRoot, text) : null;
  return {
    text,
    blocked,
    attachments: attached?.attachments ?? [],
    notices: [...noticesOf(hook), ...(attached?.notices ?? [])],
  };
}

/** The steering message as a user entry (and its hooks' notices) in the batch that starts the next call. */
export function addSteering(batch: AppendBatch, steering: Steering): string {
  const { text, blocked } = steering;
  const entryId = batch.entry('user', {
    text,
    steered: true,
    ...(blocked === null ? {} : { blocked }),
    ...attachmentsField(steering.attachments),
  });
  addNotices(batch, steering.notices);
  return entryId;
}

/** Tells the screen the steering message went in, or that a hook blocked it. */
export function announceSteering(steering: Steering | null, entryId: string | null, emit: EventSink): void {
  if (!steering || entryId === null) return;
  emitNotices(steering.notices, emit);
  if (steering.blocked === null) emit({ type: 'steered', entryId, text: steering.text });
  else
    emit({
      type: 'notice',
      level: 'warn',
      text: `a userPrompt hook blocked the steering message (it stays in the transcript, and is not sent): ${steering.blocked}`,
    });
}
