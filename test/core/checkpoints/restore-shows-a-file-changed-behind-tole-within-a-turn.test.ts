/**
 * Within a turn, a checkpoint before a write_file is a known-path one: it reads only what tole's
 * own calls named. A file another process changed between two write_file calls of one turn is
 * therefore not in the second call's checkpoint; restoring to it shows that file in the preview
 * (the plan compares the checkpoint with the workspace as it is now), and the restore first
 * checkpoints the workspace by a full scan, so that the other process's change can be restored too.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../../src/core/session/events';
import { previewRestore } from '../../../src/core/session/restore-files';
import { entriesOfType } from '../../support/agent-fixtures';
import { fileInCheckpoint, writeFileReply } from '../../support/checkpoint-reads';
import { scriptedAgentPerTest } from '../../support/scripted-agent';

const scripted = scriptedAgentPerTest({
  server: { defaultReply: { text: 'done' } },
  dirsPrefix: 'tole-checkpoint-behind-',
});

describe('a file changed behind tole within a turn', () => {
  it('is named by the restore preview, and checkpointed as it is before the restore', async () => {
    const at = (name: string): string => join(scripted.dirs.root, name);
    for (const name of ['a', 'b', 'c']) writeFileSync(at(`${name}.txt`), `${name} before\n`);
    const { agent, store } = scripted.agent({ policy: { yes: true }, checkpointHome: scripted.dirs.home });
    const checkpoints = agent['deps'].checkpoints!;
    const show = (id: string, path: string): string => fileInCheckpoint(checkpoints.directory, id, path);

    scripted.server.push(writeFileReply('call_a', 'a.txt', 'a by tole\n'));
    scripted.server.push(writeFileReply('call_c', 'c.txt', 'c by tole\n'));
    const emit = (event: SessionEvent): void => {
      // Between the two calls of the turn, another process (an editor, a build) changes b.txt.
      if (event.type === 'tool-result' && event.callId === 'call_a')
        writeFileSync(at('b.txt'), 'b by another process\n');
    };
    expect((await agent.runTurn('write a and c', new AbortController().signal, emit)).outcome).toBe('done');

    const intents = entriesOfType(store, 'tool_intent');
    const second = intents.find((e) => e.payload.callId === 'call_c')!;
    const secondCheckpoint = second.payload.checkpoint!;
    // The second call's checkpoint holds what tole wrote (a.txt), not what it did not name (b.txt).
    expect(show(secondCheckpoint, 'a.txt')).toBe('a by tole\n');
    expect(show(secondCheckpoint, 'b.txt')).toBe('b before\n');

    const [asked] = entriesOfType(store, 'assistant').filter((e) => e.payload.toolCalls.some((c) => c.id === 'call_c'));
    const preview = await previewRestore({ store, checkpoints }, asked!.id);
    if (!preview.ok) throw new Error(preview.reason);
    expect(preview.plan.checkpoint).toBe(secondCheckpoint);
    expect([...preview.plan.changed].sort()).toEqual(['b.txt', 'c.txt']);

    const restored = await agent.restoreFiles(asked!.id, () => {});
    expect(restored.ok).toBe(true);
    const [restore] = entriesOfType(store, 'restore');
    expect(show(restore!.payload.checkpoint!, 'b.txt')).toBe('b by another process\n');
    expect(['a', 'b', 'c'].map((n) => readFileSync(at(`${n}.txt`), 'utf8'))).toEqual([
      'a by tole\n',
      'b before\n',
      'c before\n',
    ]);

    // And the restore undoes: the other process's change comes back.
    if (!restored.ok) return;
    expect((await agent.restoreFiles(restored.undoEntryId, () => {})).ok).toBe(true);
    expect(readFileSync(at('b.txt'), 'utf8')).toBe('b by another process\n');
    store.close();
  });
});
