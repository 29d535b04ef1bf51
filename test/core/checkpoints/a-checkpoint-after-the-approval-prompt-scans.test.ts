/**
 * A call that waited on the approval prompt is a rescan point: while the prompt waited, the user
 * (or their editor) may have changed any file. The checkpoint taken after the keypress, before the
 * approved write, therefore scans the whole workspace, even within a turn whose earlier calls were
 * all ones tole can name; a file changed while the prompt waited is in it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Approver } from '../../../src/core/approval/approver';
import { entriesOfType } from '../../support/agent-fixtures';
import { fileInCheckpoint, writeFileReply } from '../../support/checkpoint-reads';
import { scriptedAgentPerTest } from '../../support/scripted-agent';

const scripted = scriptedAgentPerTest({
  server: { defaultReply: { text: 'done' } },
  dirsPrefix: 'tole-checkpoint-prompt-',
});

describe('a checkpoint after the approval prompt', () => {
  it.each([
    ['approved', true],
    ['denied, then a later call approved', false],
  ])('holds a file the user changed while the prompt waited (%s)', async (_name, approveWhileEditing) => {
    const at = (name: string): string => join(scripted.dirs.root, name);
    for (const name of ['a', 'b', 'c']) writeFileSync(at(`${name}.txt`), `${name} before\n`);
    // The user edits b.txt while the prompt for call_c waits, then answers it.
    const approver: Approver = {
      decide: async (request) => {
        if (request.callId !== 'call_c') return { approved: true, by: 'user' };
        writeFileSync(at('b.txt'), 'b by the user while the prompt waited\n');
        return approveWhileEditing
          ? { approved: true, by: 'user' }
          : { approved: false, by: 'user', reason: 'denied at the prompt' };
      },
    };
    const { agent, store } = scripted.agent({
      policy: { interactive: true },
      approver,
      checkpointHome: scripted.dirs.home,
    });
    const checkpoints = agent['deps'].checkpoints!;
    const show = (id: string, path: string): string => fileInCheckpoint(checkpoints.directory, id, path);

    scripted.server.push(writeFileReply('call_a', 'a.txt', 'a by tole\n'));
    scripted.server.push(writeFileReply('call_c', 'c.txt', 'c by tole\n'));
    if (!approveWhileEditing) scripted.server.push(writeFileReply('call_d', 'd.txt', 'd by tole\n'));
    expect((await agent.runTurn('write a and c', new AbortController().signal, () => {})).outcome).toBe('done');

    const last = approveWhileEditing ? 'call_c' : 'call_d';
    const approval = entriesOfType(store, 'approval').find((e) => e.payload.callId === last)!;
    const checkpoint = approval.payload.checkpoint!;
    expect(show(checkpoint, 'a.txt')).toBe('a by tole\n');
    expect(show(checkpoint, 'b.txt')).toBe('b by the user while the prompt waited\n');
    store.close();
  });
});
