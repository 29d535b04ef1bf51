/**
 * A scripted model runs four calls that change files (under --yes, with an approver for the ones
 * that need a key): a python rmtree, a node one-liner, `git clean -fdx` and a truncating
 * write_file. Restoring to the entry before each call brings back every byte, mode and directory
 * as they were; files changed by hand afterwards show in the preview first. The user's own git
 * repository (HEAD, index, stash, untracked files, every file under .git) is never touched by a
 * checkpoint or a restore.
 */
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Approver } from '../../../src/core/approval/approver';
import { NS } from '../../../src/core/registers/namespaces';
import { checkout } from '../../../src/core/session/cursor';
import { previewRestore, restoreTarget } from '../../../src/core/session/restore-files';
import { entriesOfType } from '../../support/agent-fixtures';
import { scriptedAgentPerTest } from '../../support/scripted-agent';
import { treeState, userGit, userRepoState, type TreeState } from '../../support/workspace-state';

const scripted = scriptedAgentPerTest({ server: { defaultReply: { text: 'done' } }, dirsPrefix: 'tole-checkpoint-' });

const approveAll: Approver = { decide: async () => ({ approved: true, by: 'user' }) };

/** A project under git with a commit, a stash entry, an untracked file, nested dirs and a script. */
function makeProject(root: string): void {
  mkdirSync(join(root, 'src', 'deep', 'er'), { recursive: true });
  writeFileSync(join(root, 'src', 'main.ts'), 'export const main = 1;\n');
  writeFileSync(join(root, 'src', 'deep', 'er', 'leaf.bin'), Buffer.from([0, 1, 2, 255, 254, 10, 13, 0]));
  writeFileSync(join(root, 'src', 'deep', 'tool.sh'), '#!/bin/sh\necho tool\n');
  chmodSync(join(root, 'src', 'deep', 'tool.sh'), 0o755);
  writeFileSync(join(root, 'run.sh'), '#!/bin/sh\necho run\n');
  chmodSync(join(root, 'run.sh'), 0o755);
  writeFileSync(join(root, 'README.md'), '# project\n\nA long readme that a write will truncate.\n');
  symlinkSync('src/main.ts', join(root, 'main-link.ts'));
  userGit(root, 'init', '-q', '-b', 'trunk');
  userGit(root, 'add', '-A');
  userGit(root, 'commit', '-q', '-m', 'first');
  writeFileSync(join(root, 'README.md'), '# project\n\nA long readme that a write will truncate, stashed.\n');
  userGit(root, 'stash', '-q');
  writeFileSync(join(root, 'scratch.txt'), 'untracked by the user\n');
  writeFileSync(join(root, 'src', 'untracked-in-src.ts'), 'not committed\n');
}

const CALLS = [
  { name: 'bash', arguments: JSON.stringify({ command: `python3 -c "import shutil; shutil.rmtree('src')"` }) },
  { name: 'bash', arguments: JSON.stringify({ command: `node -e "require('fs').writeFileSync('a.txt','x')"` }) },
  { name: 'bash', arguments: JSON.stringify({ command: 'git clean -fdx' }) },
  { name: 'write_file', arguments: JSON.stringify({ path: 'README.md', content: '#' }) },
];

describe('restoring to the entry before a call brings back the files as they were', () => {
  it('undoes an rmtree, a node write, git clean -fdx and a truncating write_file, byte for byte', async () => {
    makeProject(scripted.dirs.root);
    const repoBefore = userRepoState(scripted.dirs.root);
    const { agent, store } = scripted.agent({
      policy: { yes: true, interactive: true },
      approver: approveAll,
      checkpointHome: scripted.dirs.home,
    });

    const before: TreeState[] = [];
    const askedAt: string[] = [];
    for (const [i, call] of CALLS.entries()) {
      before.push(treeState(scripted.dirs.root));
      scripted.server.push({ toolCalls: [{ id: `call_${i}`, ...call }] });
      const result = await agent.runTurn(`step ${i}`, new AbortController().signal, () => {});
      expect(result.outcome).toBe('done');
      const [asked] = entriesOfType(store, 'assistant').filter((e) =>
        e.payload.toolCalls.some((c) => c.id === `call_${i}`),
      );
      askedAt.push(asked!.id);
    }
    // Every call ran and every one named a checkpoint, in its intent or in the approval it waited for.
    expect(entriesOfType(store, 'tool_result').map((e) => e.payload.outcome)).toEqual(['ok', 'ok', 'ok', 'ok']);
    const named = [...entriesOfType(store, 'tool_intent'), ...entriesOfType(store, 'approval')].filter(
      (e) => e.payload.checkpoint !== undefined,
    );
    expect(named).toHaveLength(4);
    expect(treeState(scripted.dirs.root)['src']).toBeUndefined();
    expect(before[0]!['src/deep/tool.sh']).toMatch(/^file 755 /);

    // A file the user changes by hand after the last call is in the preview before it is overwritten.
    writeFileSync(join(scripted.dirs.root, 'a.txt'), 'changed by hand\n');
    const preview = await previewRestore({ store, checkpoints: agent['deps'].checkpoints! }, askedAt[0]!);
    if (!preview.ok) throw new Error(preview.reason);
    expect(preview.plan.removed).toContain('a.txt');
    expect(preview.plan.added).toEqual(expect.arrayContaining(['src/main.ts', 'src/deep/er/leaf.bin', 'scratch.txt']));
    expect(preview.plan.changed).toContain('README.md');

    for (const [i, entryId] of askedAt.entries()) {
      const repoAround = userRepoState(scripted.dirs.root);
      const outcome = await agent.restoreFiles(entryId, () => {});
      if (!outcome.ok) throw new Error(outcome.reason);
      expect(treeState(scripted.dirs.root), `restored to the entry before call ${i}`).toEqual(before[i]);
      // Restoring wrote nothing under .git: HEAD, index, stash, refs, objects are as they were.
      expect(userRepoState(scripted.dirs.root).gitDir).toEqual(repoAround.gitDir);
    }

    // Back at the start: the user's repository is exactly as it was, untracked files included.
    await agent.restoreFiles(askedAt[0]!, () => {});
    expect(userRepoState(scripted.dirs.root)).toEqual(repoBefore);
    expect(store.registers.entries(NS.pending)).toEqual([]);
    // Each restore is an intent with a checkpoint of its own, and one settlement.
    const restores = entriesOfType(store, 'restore');
    expect(restores).toHaveLength(5);
    expect(restores.every((e) => typeof e.payload.checkpoint === 'string')).toBe(true);
    expect(entriesOfType(store, 'restore_result').map((e) => e.payload.outcome)).toEqual([
      'ok',
      'ok',
      'ok',
      'ok',
      'ok',
    ]);
    store.close();
  });

  it('moves between branches: to an entry of another branch, then back to the newest entry of the first', async () => {
    const { agent, store } = scripted.agent({
      policy: { yes: true },
      checkpointHome: scripted.dirs.home,
    });
    writeFileSync(join(scripted.dirs.root, 'shared.txt'), 'v0\n');
    scripted.server.push({
      toolCalls: [
        { id: 'call_a', name: 'write_file', arguments: JSON.stringify({ path: 'a.txt', content: 'branch one\n' }) },
      ],
    });
    await agent.runTurn('make a', new AbortController().signal, () => {});
    const firstLeaf = store.registers.get<string>(NS.laneLeaf, 'main')!;
    const onFirst = treeState(scripted.dirs.root);

    // Branch from the first prompt's parent (the root): a second branch that writes other files.
    checkout(store, null);
    scripted.server.push({
      toolCalls: [
        {
          id: 'call_b',
          name: 'write_file',
          arguments: JSON.stringify({ path: 'shared.txt', content: 'v1 from branch two\n' }),
        },
      ],
    });
    await agent.runTurn('make b', new AbortController().signal, () => {});
    const secondLeaf = store.registers.get<string>(NS.laneLeaf, 'branch-2')!;
    const onSecond = treeState(scripted.dirs.root);
    expect(onSecond).not.toEqual(onFirst);

    const toFirst = await agent.restoreFiles(firstLeaf, () => {});
    expect(toFirst.ok).toBe(true);
    expect(treeState(scripted.dirs.root)).toEqual(onFirst);

    expect(restoreTarget(store, secondLeaf)).not.toBeNull();
    const back = await agent.restoreFiles(secondLeaf, () => {});
    expect(back.ok).toBe(true);
    expect(treeState(scripted.dirs.root)).toEqual(onSecond);
    store.close();
  });
});
