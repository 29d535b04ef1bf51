/**
 * The restore's own crash points: a child process restores the files and SIGKILLs itself half
 * way (after the removals, before the writes). Resume runs the restore again (it is idempotent)
 * and settles it exactly once; the files end as they were at the entry. A crash after a
 * checkpoint and before the intent that would name it leaves nothing to settle.
 */
import { readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NS } from '../../src/core/registers/namespaces';
import { buildAgent, entriesOfType, onlySessionFile, tempDirs } from '../support/agent-fixtures';
import { crashFixture } from '../support/crash-fixture';
import { treeState } from '../support/workspace-state';

const crash = crashFixture({ defaultReply: { text: 'done' } });

describe('a crash in the middle of a restore', () => {
  it('is settled once on resume, and the files end as they were at the entry', async () => {
    const dirs = tempDirs('tole-restore-crash-');
    writeFileSync(join(dirs.root, 'x.txt'), 'x0\n');
    writeFileSync(join(dirs.root, 'y.txt'), 'y0\n');
    const expected = treeState(dirs.root);
    const first = buildAgent({
      baseURL: crash.server.url,
      sessionsDir: dirs.sessions,
      workspaceRoot: dirs.root,
      policy: { yes: true },
      checkpointHome: dirs.home,
    });
    crash.server.push(
      {
        toolCalls: [
          { id: 'w_new', name: 'write_file', arguments: JSON.stringify({ path: 'new.txt', content: 'new\n' }) },
        ],
      },
      { toolCalls: [{ id: 'w_x', name: 'write_file', arguments: JSON.stringify({ path: 'x.txt', content: 'x1\n' }) }] },
    );
    await first.agent.runTurn('change files', new AbortController().signal, () => {});
    const entryId = entriesOfType(first.store, 'user')[0]!.id;
    first.store.close();
    rmSync(join(dirs.root, 'y.txt'));
    const path = onlySessionFile(dirs.sessions);

    await crash.crashRestore(
      {
        sessionsDir: dirs.sessions,
        sessionPath: path,
        workspaceRoot: dirs.root,
        checkpointHome: dirs.home,
        entryId,
      },
      'during-restore',
    );
    // Half done: the removal happened, the writes did not.
    expect(existsSync(join(dirs.root, 'new.txt'))).toBe(false);
    expect(readFileSync(join(dirs.root, 'x.txt'), 'utf8')).toBe('x1\n');

    const resumed = buildAgent({
      baseURL: crash.server.url,
      sessionsDir: dirs.sessions,
      workspaceRoot: dirs.root,
      sessionPath: path,
      checkpointHome: dirs.home,
    });
    expect(resumed.store.registers.entries(NS.pending)).toHaveLength(1);
    expect(await resumed.agent.resume(new AbortController().signal, () => {})).toBe(1);
    expect(treeState(dirs.root)).toEqual(expected);
    const results = entriesOfType(resumed.store, 'restore_result');
    expect(results.map((e) => [e.payload.outcome, e.payload.resumed])).toEqual([['ok', true]]);
    expect(resumed.store.registers.entries(NS.pending)).toEqual([]);
    expect(await resumed.agent.resume(new AbortController().signal, () => {})).toBe(0);
    expect(entriesOfType(resumed.store, 'restore_result')).toHaveLength(1);
    resumed.store.close();
  });

  it('a crash after the checkpoint, before the intent that names it, leaves nothing to settle and nothing run', async () => {
    const dirs = tempDirs('tole-restore-crash-');
    writeFileSync(join(dirs.root, 'x.txt'), 'x0\n');
    const first = buildAgent({
      baseURL: crash.server.url,
      sessionsDir: dirs.sessions,
      workspaceRoot: dirs.root,
      policy: { yes: true },
      checkpointHome: dirs.home,
    });
    crash.server.push({
      toolCalls: [{ id: 'w_x', name: 'write_file', arguments: JSON.stringify({ path: 'x.txt', content: 'x1\n' }) }],
    });
    await first.agent.runTurn('change x', new AbortController().signal, () => {});
    const entryId = entriesOfType(first.store, 'user')[0]!.id;
    first.store.close();
    const path = onlySessionFile(dirs.sessions);

    await crash.crashRestore(
      {
        sessionsDir: dirs.sessions,
        sessionPath: path,
        workspaceRoot: dirs.root,
        checkpointHome: dirs.home,
        entryId,
      },
      'after-checkpoint',
    );
    expect(readFileSync(join(dirs.root, 'x.txt'), 'utf8')).toBe('x1\n');

    const resumed = buildAgent({
      baseURL: crash.server.url,
      sessionsDir: dirs.sessions,
      workspaceRoot: dirs.root,
      sessionPath: path,
      checkpointHome: dirs.home,
    });
    expect(await resumed.agent.resume(new AbortController().signal, () => {})).toBe(0);
    expect(entriesOfType(resumed.store, 'restore')).toHaveLength(0);
    expect(readFileSync(join(dirs.root, 'x.txt'), 'utf8')).toBe('x1\n');
    resumed.store.close();
  });
});
