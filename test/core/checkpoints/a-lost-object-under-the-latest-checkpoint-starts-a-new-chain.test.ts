/**
 * tole's loose objects are not all fsynced: a crash right after a checkpoint can lose a folder's
 * tree or a file's blob under it while its commit still reads. Before, nothing noticed: the next
 * scan reused the unchanged folder's tree by id and every later checkpoint named the lost object
 * too (a restore to any of them failed part way, after its removals), and a scan that staged a
 * file beside a lost blob failed ('invalid object ... error building trees'), after which every
 * call of the session ran without a checkpoint. Now the next process's first checkpoint (and any
 * scan that fails so) looks under the head, reads every file again when something is lost, says
 * so once, and a restore that needs a lost object refuses before writing, naming it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SessionCommands } from '../../../src/core/session/session-commands';
import { entriesOfType } from '../../support/agent-fixtures';
import { afterTheTest } from '../../support/after-the-test';
import { fileInCheckpoint, inCheckpoints, writeFileReply } from '../../support/checkpoint-reads';
import { scriptedAgentPerTest } from '../../support/scripted-agent';

const scripted = scriptedAgentPerTest({ server: { defaultReply: { text: 'done' } }, dirsPrefix: 'tole-lost-deep-' });

const objectFile = (directory: string, id: string): string => join(directory, 'objects', id.slice(0, 2), id.slice(2));

/** Whether every file of checkpoint `id` reads (git archive reads each blob of its tree). */
function readsWhole(directory: string, id: string): boolean {
  const run = spawnSync('git', ['archive', '--format=tar', id], {
    env: { PATH: process.env['PATH'], GIT_DIR: directory, GIT_CONFIG_GLOBAL: '/dev/null' },
    maxBuffer: 64 * 1024 * 1024,
  });
  return run.status === 0;
}

function setUp() {
  const at = (name: string): string => join(scripted.dirs.root, name);
  mkdirSync(at('sub/deeper'), { recursive: true });
  writeFileSync(at('sub/deeper/kept.txt'), 'kept\n');
  writeFileSync(at('a.txt'), 'a before\n');
  return { at, tole: () => aTole() };
}

/** A tole on the test's workspace (a new process's checkpoints: nothing of an earlier one in memory). */
function aTole() {
  const built = scripted.agent({ policy: { yes: true }, checkpointHome: scripted.dirs.home });
  afterTheTest(() => built.store.close());
  const { agent, store } = built;
  const checkpoints = agent['deps'].checkpoints!;
  const turn = async (id: string, file: string, text: string): Promise<string> => {
    scripted.server.push(writeFileReply(id, file, text));
    expect((await agent.runTurn(`write ${file}`, new AbortController().signal, () => {})).outcome).toBe('done');
    const intent = entriesOfType(store, 'tool_intent').find((entry) => entry.payload.callId === id);
    return intent?.payload.checkpoint ?? '';
  };
  const notices = (): string[] =>
    entriesOfType(store, 'notice')
      .filter((entry) => entry.payload.source === 'checkpoint')
      .map((entry) => entry.payload.text);
  const restore = async (prompt: number) => {
    const prompts = entriesOfType(store, 'user');
    return new SessionCommands(store, agent, () => false).restore(prompts[prompt]!.id, () => {});
  };
  return { agent, store, checkpoints, turn, notices, restore, directory: checkpoints.directory };
}

const harms: Record<string, { path: string; harm: (file: string) => void; said: string }> = {
  'a folder (sub) removed': { path: 'sub', harm: (file) => rmSync(file), said: 'the folder sub' },
  'a folder two deep (sub/deeper) removed': {
    path: 'sub/deeper',
    harm: (file) => rmSync(file),
    said: 'the folder sub/deeper',
  },
  "a folder's tree left empty": {
    path: 'sub/deeper',
    harm: (file) => truncateSync(file, 0),
    said: 'the folder sub/deeper',
  },
  "a file's blob removed": { path: 'sub/deeper/kept.txt', harm: (file) => rmSync(file), said: 'sub/deeper/kept.txt' },
  "a file's blob left empty": {
    path: 'sub/deeper/kept.txt',
    harm: (file) => truncateSync(file, 0),
    said: 'sub/deeper/kept.txt',
  },
  "a file's blob cut short": {
    path: 'sub/deeper/kept.txt',
    harm: (file) => truncateSync(file, 5),
    said: 'sub/deeper/kept.txt',
  },
};

describe('an object lost under the latest checkpoint, its commit still read', () => {
  for (const [how, { path, harm, said }] of Object.entries(harms)) {
    it(`${how}, then a crash: the next tole reads every file again, says so once, and keeps checkpoints on`, async () => {
      const { at, tole } = setUp();
      const first = tole();
      const before = await first.turn('call_1', 'a.txt', 'a by tole\n');
      expect(before).toMatch(/^[0-9a-f]{40}$/);
      first.checkpoints.close();
      const id = inCheckpoints(first, 'rev-parse', `${before}:${path}`).trim();
      harm(objectFile(first.directory, id));
      expect(readsWhole(first.directory, before)).toBe(false);

      const next = tole();
      const second = await next.turn('call_2', 'sub/deeper/b.txt', 'b by tole\n');
      const third = await next.turn('call_3', 'sub/deeper/c.txt', 'c by tole\n');
      expect(second).toMatch(/^[0-9a-f]{40}$/);
      expect(third).toMatch(/^[0-9a-f]{40}$/);
      expect(next.notices()).toEqual([
        expect.stringContaining(`checkpoint ${before.slice(0, 12)} has lost part of what it held (${said}: a crash`),
      ]);
      // The chain goes on from the head (its commit reads), and each new checkpoint reads whole.
      expect(inCheckpoints(next, 'rev-parse', `${second}^`).trim()).toBe(before);
      expect(inCheckpoints(next, 'rev-parse', `${third}^`).trim()).toBe(second);
      for (const checkpoint of [second, third]) expect(readsWhole(next.directory, checkpoint)).toBe(true);
      expect(fileInCheckpoint(next.directory, third, 'sub/deeper/kept.txt')).toBe('kept\n');
      expect(fileInCheckpoint(next.directory, third, 'sub/deeper/b.txt')).toBe('b by tole\n');
      expect(readFileSync(at('sub/deeper/c.txt'), 'utf8')).toBe('c by tole\n');
    });
  }

  it('objects removed while tole runs: the scan that fails on them reads every file again instead of turning checkpoints off', async () => {
    const { tole } = setUp();
    const one = tole();
    const before = await one.turn('call_1', 'a.txt', 'a by tole\n');
    const kept = inCheckpoints(one, 'rev-parse', `${before}:sub/deeper/kept.txt`).trim();
    rmSync(objectFile(one.directory, kept));
    const second = await one.turn('call_2', 'sub/deeper/b.txt', 'b by tole\n');
    const third = await one.turn('call_3', 'sub/deeper/c.txt', 'c by tole\n');
    expect(one.notices()).toEqual([
      expect.stringContaining(`checkpoint ${second.slice(0, 12)} has lost part of what it held (sub/deeper/kept.txt`),
    ]);
    expect(third).toMatch(/^[0-9a-f]{40}$/);
    expect(readsWhole(one.directory, third)).toBe(true);
    expect(fileInCheckpoint(one.directory, third, 'sub/deeper/b.txt')).toBe('b by tole\n');
  });

  it('a lost file the restore must write: refused before any file is removed or written, the file named', async () => {
    const { at, tole } = setUp();
    const one = tole();
    const before = await one.turn('call_1', 'a.txt', 'a by tole\n');
    await one.turn('call_2', 'new.txt', 'new by tole\n');
    // The blob of a.txt as it was before call_1: no file holds it any more.
    rmSync(objectFile(one.directory, inCheckpoints(one, 'rev-parse', `${before}:a.txt`).trim()));
    const outcome = await one.restore(0);
    expect(outcome).toMatchObject({ ok: false });
    const message = outcome.ok ? '' : outcome.message;
    expect(message).toContain(`checkpoint ${before.slice(0, 12)} cannot be restored whole: a.txt is lost from`);
    expect(message).toContain('nothing was written');
    expect(readFileSync(at('a.txt'), 'utf8')).toBe('a by tole\n');
    // The restore would have removed new.txt first: it is still there.
    expect(readFileSync(at('new.txt'), 'utf8')).toBe('new by tole\n');
  });

  it('a lost folder the restore must read: refused, the folder named, nothing written', async () => {
    const { at, tole } = setUp();
    const one = tole();
    const before = await one.turn('call_1', 'sub/deeper/kept.txt', 'kept by tole\n');
    await one.turn('call_2', 'new.txt', 'new by tole\n');
    rmSync(objectFile(one.directory, inCheckpoints(one, 'rev-parse', `${before}:sub/deeper`).trim()));
    const outcome = await one.restore(0);
    const message = outcome.ok ? '' : outcome.message;
    expect(message).toContain(
      `checkpoint ${before.slice(0, 12)} cannot be restored whole: the folder sub/deeper is lost`,
    );
    expect(readFileSync(at('sub/deeper/kept.txt'), 'utf8')).toBe('kept by tole\n');
    expect(existsSync(at('new.txt'))).toBe(true);
  });

  it('a lost file the restore does not need (the workspace holds it as the checkpoint does): the restore is done', async () => {
    const { at, tole } = setUp();
    const one = tole();
    const before = await one.turn('call_1', 'a.txt', 'a by tole\n');
    rmSync(objectFile(one.directory, inCheckpoints(one, 'rev-parse', `${before}:sub/deeper/kept.txt`).trim()));
    const outcome = await one.restore(0);
    expect(outcome).toMatchObject({ ok: true });
    expect(readFileSync(at('a.txt'), 'utf8')).toBe('a before\n');
    expect(readFileSync(at('sub/deeper/kept.txt'), 'utf8')).toBe('kept\n');
  });
});
