import type { HookOutcome } from '../hooks/hook-runner';
import type { SessionStore } from '../storage/session-store';
import { AppendBatch } from './cursor';
import type { EventSink } from './events';

/** What a turnError hook asked for: try the failed call once more, optionally with another model. */
interface RetryRequest {
  readonly model: string | null;
}

/**
 * A turnError hook that exits 0 and prints `{"retry":true}` (optionally `"model":"NAME"`) asks
 * for one more try. Anything else (another exit code, other output, JSON without `retry: true`)
 * asks for nothing. The output is the hook's, so it is read as untrusted JSON.
 */
export function retryRequested(outcome: HookOutcome | null): RetryRequest | null {
  for (const run of outcome?.runs ?? []) {
    if (run.exitCode !== 0) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(run.stdout.trim());
    } catch {
      continue;
    }
    if (typeof parsed !== 'object' || parsed === null || (parsed as { retry?: unknown }).retry !== true) continue;
    const model = (parsed as { model?: unknown }).model;
    return { model: typeof model === 'string' && model.trim() !== '' && model.length <= 200 ? model.trim() : null };
  }
  return null;
}

/** Says in the transcript that a turnError hook's retry request is honoured, before the call is made again. */
export function commitRetryNotice(store: SessionStore, model: string | null, why: string, emit: EventSink): void {
  const text = `a turnError hook asked to try again${model === null ? '' : ` with ${model}`} after: ${why}`;
  const batch = new AppendBatch(store);
  batch.entry('notice', { level: 'info', source: 'hook', text });
  store.commit(batch.build());
  emit({ type: 'notice', level: 'info', text });
}
