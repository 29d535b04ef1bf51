/**
 * A hook is a command tole runs, and it may change any file of the workspace (a formatter after
 * each write, a log of the calls): what it changed is in the next checkpoint. A checkpoint within
 * a turn reads again only the paths tole's calls named (known-path); after a hook ran it scans, so
 * restoring to the call after the hook brings the files back as they were there, hook's work included.
 */
import { describe, expect, it } from 'vitest';
import { HookRunner } from '../../../src/core/hooks/hook-runner';
import { entriesOfType } from '../../support/agent-fixtures';
import { fileInCheckpoint, writeFileReply } from '../../support/checkpoint-reads';
import { scriptedAgentPerTest } from '../../support/scripted-agent';

const scripted = scriptedAgentPerTest({
  server: { defaultReply: { text: 'done' } },
  dirsPrefix: 'tole-checkpoint-hook-',
});

describe('a hook that changes files between two calls of a turn', () => {
  it.each([
    ['postToolUse', 'after the first call'],
    ['preToolUse', 'before the second call'],
  ] as const)('(%s, %s) is in the second call’s checkpoint', async (event, _when) => {
    const root = scripted.dirs.root;
    const hooks = HookRunner.create({ config: { [event]: 'echo "$TOLE_TOOL" >> hook.log' }, cwd: root });
    const { agent, store } = scripted.agent({
      policy: { yes: true },
      checkpointHome: scripted.dirs.home,
      deps: { hooks },
    });
    const checkpoints = agent['deps'].checkpoints!;
    const show = (id: string, path: string): string => fileInCheckpoint(checkpoints.directory, id, path);

    scripted.server.push(writeFileReply('call_a', 'a.txt', 'a by tole\n'));
    scripted.server.push(writeFileReply('call_c', 'c.txt', 'c by tole\n'));
    expect((await agent.runTurn('write a and c', new AbortController().signal, () => {})).outcome).toBe('done');

    const second = entriesOfType(store, 'tool_intent').find((e) => e.payload.callId === 'call_c')!;
    // The hook ran once before the second call's checkpoint after the first call's was taken.
    const lines = event === 'postToolUse' ? 'write_file\n' : 'write_file\nwrite_file\n';
    expect(show(second.payload.checkpoint!, 'hook.log')).toBe(lines);
    store.close();
  });
});
