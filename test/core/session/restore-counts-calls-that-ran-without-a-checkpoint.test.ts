/**
 * The files as they were at an entry come from the first checkpoint after it. A call between the
 * two that ran without a checkpoint of its own (its checkpoint failed or ran past the time limit)
 * changed files that checkpoint already holds: the restore target counts such calls, so that the
 * preview can say the files come back as they were after them, not at the entry.
 */
import { describe, expect, it } from 'vitest';
import { AppendBatch } from '../../../src/core/session/cursor';
import { Checkpoints } from '../../../src/core/checkpoints/checkpoint-store';
import { previewRestore, restoreTarget } from '../../../src/core/session/restore-files';
import type { SessionStore } from '../../../src/core/storage/session-store';
import type { Risk } from '../../../src/core/approval/risk';
import { afterTheTest, tempDirForTest } from '../../support/after-the-test';
import { createStore } from '../../support/storage-fixtures';

const YES = { approved: true, by: 'yes' } as const;
const DENIED = { approved: false, by: 'user', reason: 'no' } as const;

function store(): SessionStore {
  const s = createStore(tempDirForTest('tole-restore-count-'));
  afterTheTest(() => s.close());
  return s;
}

function commit(s: SessionStore, type: 'user', payload: { text: string }): string;
function commit(s: SessionStore, type: string, payload: unknown): string;
function commit(s: SessionStore, type: string, payload: unknown): string {
  const batch = new AppendBatch(s);
  const id = batch.entry(type as 'user', payload as { text: string });
  s.commit(batch.build());
  return id;
}

function intent(
  s: SessionStore,
  callId: string,
  options: { risk?: Risk; approval?: typeof YES | typeof DENIED | null; checkpoint?: string } = {},
): string {
  return commit(s, 'tool_intent', {
    callId,
    tool: 'write_file',
    input: {},
    subject: 'f.txt',
    risk: options.risk ?? 'Write',
    reason: '',
    replay: 'idempotent',
    approval: options.approval === undefined ? YES : options.approval,
    ...(options.checkpoint ? { checkpoint: options.checkpoint } : {}),
  });
}

const CHECKPOINT = 'c'.repeat(40);

describe('the calls a restore cannot bring back', () => {
  it('counts calls approved at intent or later that named no checkpoint, before the one that did', () => {
    const s = store();
    const prompt = commit(s, 'user', { text: 'go' });
    intent(s, 'a'); // --yes, no checkpoint: counted
    intent(s, 'read', { risk: 'ReadOnly' }); // reads change nothing
    intent(s, 'asked', { approval: null });
    commit(s, 'approval', { callId: 'asked', decision: YES }); // allowed at the prompt, no checkpoint: counted
    intent(s, 'denied', { approval: null });
    commit(s, 'approval', { callId: 'denied', decision: DENIED }); // denied: ran nothing
    intent(s, 'policy-denied', { approval: DENIED });
    intent(s, 'esc', { approval: null }); // Esc at its checkpoint: no approval entry, ran nothing
    const held = intent(s, 'b', { checkpoint: CHECKPOINT });
    intent(s, 'after'); // after the checkpoint: not in what it holds
    expect(restoreTarget(s, prompt)).toEqual({
      entryId: prompt,
      heldBy: held,
      checkpoint: CHECKPOINT,
      uncheckpointed: 2,
    });
    expect(restoreTarget(s, held)?.uncheckpointed).toBe(0);
  });

  it('does not count a call whose late approval took the checkpoint', () => {
    const s = store();
    const prompt = commit(s, 'user', { text: 'go' });
    intent(s, 'asked', { approval: null });
    const held = commit(s, 'approval', { callId: 'asked', decision: YES, checkpoint: CHECKPOINT });
    expect(restoreTarget(s, prompt)).toMatchObject({ heldBy: held, uncheckpointed: 0 });
  });

  it('counts what ran when no checkpoint came after the entry at all', async () => {
    const s = store();
    const prompt = commit(s, 'user', { text: 'go' });
    intent(s, 'a');
    intent(s, 'b', { risk: 'Destructive' });
    expect(restoreTarget(s, prompt)).toBeNull();
    const checkpoints = Checkpoints.create({
      home: tempDirForTest('tole-restore-count-home-'),
      workspaceRoot: tempDirForTest('tole-restore-count-workspace-'),
    });
    expect(await previewRestore({ store: s, checkpoints }, prompt)).toEqual({
      ok: false,
      reason: `2 calls after ${prompt} ran without a checkpoint: their file changes cannot be undone, and no checkpoint was taken after them: there is nothing to restore the files from`,
    });
  });

  it('does not count the call at the entry itself, nor what came after the checkpoint', () => {
    const s = store();
    const own = intent(s, 'own');
    intent(s, 'a');
    const held = intent(s, 'b', { checkpoint: CHECKPOINT });
    intent(s, 'c');
    expect(restoreTarget(s, own)).toEqual({ entryId: own, heldBy: held, checkpoint: CHECKPOINT, uncheckpointed: 1 });
  });
});
