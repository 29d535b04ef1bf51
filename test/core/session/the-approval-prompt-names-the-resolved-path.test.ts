import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { eventLog, resultsFor } from '../../support/agent-fixtures';
import { answering } from '../../support/answering-approver';
import { scriptedAgentPerTest } from '../../support/scripted-agent';

const scripted = scriptedAgentPerTest();
// After the fixture's own beforeEach, which made the directories.
beforeEach(() => {
  mkdirSync(path.join(scripted.dirs.root, 'real'));
  symlinkSync('real', path.join(scripted.dirs.root, 'alias'));
  mkdirSync(path.join(scripted.dirs.outside, 'home'));
  writeFileSync(path.join(scripted.dirs.outside, 'home', 'keep.txt'), 'keep\n');
  symlinkSync(scripted.dirs.outside, path.join(scripted.dirs.root, 'link'));
});

/** Approves everything and keeps what it was asked. */
const recordingApprover = () => answering({ approved: true, by: 'user' });

function call(id: string, name: string, args: Record<string, string>) {
  return { toolCalls: [{ id, name, arguments: JSON.stringify(args) }] };
}

describe('the approval prompt names the path a file tool really touches', () => {
  it('shows where a path through a symlink leads, and what the model wrote', async () => {
    scripted.server.push(
      call('c1', 'write_file', { path: 'alias/new.txt', content: 'x\n' }),
      call('c2', 'write_file', { path: './real//plain.txt', content: 'y\n' }),
      { text: ['done'] },
    );
    const { approver, asked } = recordingApprover();
    const { agent } = scripted.agent({
      approver,
    });
    await agent.runTurn('write', new AbortController().signal, eventLog().emit);
    expect(asked.map((request) => request.subject)).toEqual([
      'real/new.txt (written as alias/new.txt)',
      'real/plain.txt',
    ]);
  });

  it('never asks about a delete whose path leads outside: the call fails first and nothing outside goes', async () => {
    scripted.server.push(call('c1', 'delete_path', { path: 'nope/../link/home' }), { text: ['ok'] });
    const { approver, asked } = recordingApprover();
    const { agent, store } = scripted.agent({
      approver,
    });
    await agent.runTurn('delete', new AbortController().signal, eventLog().emit);
    expect(asked).toEqual([]);
    const [settled] = resultsFor(store, 'c1');
    expect(settled?.payload.outcome).toBe('error');
    expect(settled?.payload.content).toContain('does not exist, so the ".." after it cannot be resolved');
    expect(readdirSync(path.join(scripted.dirs.outside, 'home'))).toEqual(['keep.txt']);
  });

  it('asks about deleting a symlink by the link itself, and removes only the link', async () => {
    scripted.server.push(call('c1', 'delete_path', { path: 'link' }), { text: ['ok'] });
    const { approver, asked } = recordingApprover();
    const { agent } = scripted.agent({
      approver,
    });
    await agent.runTurn('delete', new AbortController().signal, eventLog().emit);
    expect(asked.map((request) => request.subject)).toEqual(['link']);
    expect(readdirSync(scripted.dirs.root).sort()).toEqual(['alias', 'real']);
    expect(readdirSync(path.join(scripted.dirs.outside, 'home'))).toEqual(['keep.txt']);
  });
});
