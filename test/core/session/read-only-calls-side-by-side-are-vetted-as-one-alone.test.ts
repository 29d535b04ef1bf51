/**
 * Where there is no sandbox every bash call runs unconfined, ReadOnly ones too. A reply's
 * ReadOnly calls run side by side (read-fan-out.ts); each is vetted before its intent as a call
 * alone is, so a repository config tole cannot vouch for denies it before anything runs, and the
 * model reads the same words whichever way the call came: alone, side by side, or refused at the
 * run.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createBashTool } from '../../../src/core/tools/builtin/bash';
import { entriesOfType, eventLog, resultsFor } from '../../support/agent-fixtures';
import { scriptedAgentPerTest } from '../../support/scripted-agent';

const scripted = scriptedAgentPerTest();

/** The workspace a repository whose config holds a key tole does not know. */
function unvouchedRepository(): void {
  const { root, outside } = scripted.dirs;
  execFileSync('git', ['init', '-q'], { cwd: root });
  appendFileSync(path.join(root, '.git', 'config'), `[gitflow "path"]\n\thooks = ${outside}\n`);
}

const call = (id: string, command: string) => ({ id, name: 'bash', arguments: JSON.stringify({ command }) });

describe('ReadOnly bash calls side by side, with no sandbox', () => {
  it('are each denied before their intent, in the words a call alone and the run give', async () => {
    unvouchedRepository();
    const mark = path.join(scripted.dirs.outside, 'ran');
    scripted.server.push(
      { toolCalls: [call('c1', 'git status --short'), call('c2', `ls ${mark}`), call('c3', 'cat README.md')] },
      { toolCalls: [call('c4', 'git status --short')] },
      { text: ['done'] },
    );
    const { agent, store } = scripted.agent({ policy: { interactive: false } });
    const log = eventLog();
    await agent.runTurn('look', new AbortController().signal, log.emit);
    const contents = ['c1', 'c2', 'c3', 'c4'].map((id) => {
      const [result] = resultsFor(store, id);
      expect(result?.payload.outcome, id).toBe('denied');
      return result!.payload.content;
    });
    // Side by side (c1–c3) and alone (c4): one text, naming the key and what the user can do.
    expect(new Set(contents).size).toBe(1);
    expect(contents[0]).toContain('gitflow.path.hooks (in .git/config)');
    expect(contents[0]).toContain('it is refused: there is no sandbox here');
    expect(contents[0]).toContain('trustedGitKeys');
    expect(entriesOfType(store, 'tool_intent')).toEqual([]);
    expect(existsSync(mark)).toBe(false);
    // The run itself, reached with a key past a box that found nothing, refuses in the same words.
    const bash = createBashTool({ workspaceRoot: scripted.dirs.root });
    const ctx = {
      workspaceRoot: scripted.dirs.root,
      signal: new AbortController().signal,
      callId: 'x',
      keypress: true,
    };
    const run = await bash.execute({ command: 'git status --short' }, ctx);
    expect(run.ok).toBe(false);
    expect(`denied: ${run.content}`).toBe(contents[0]);
  });

  it('run side by side as before where nothing is found', async () => {
    execFileSync('git', ['init', '-q'], { cwd: scripted.dirs.root });
    scripted.server.push({ toolCalls: [call('c1', 'git status --short'), call('c2', 'echo two')] }, { text: ['done'] });
    const { agent, store } = scripted.agent({ policy: { interactive: false } });
    await agent.runTurn('look', new AbortController().signal, eventLog().emit);
    expect(resultsFor(store, 'c1')[0]?.payload.outcome).toBe('ok');
    expect(resultsFor(store, 'c2')[0]?.payload.content).toContain('two');
    expect(entriesOfType(store, 'tool_intent')).toHaveLength(2);
  });
});
