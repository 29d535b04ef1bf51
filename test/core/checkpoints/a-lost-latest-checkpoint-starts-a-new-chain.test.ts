/**
 * When the newest checkpoint's commit object is lost (a crash before it reached the disk, or
 * removed), the next checkpoint starts a new chain: its parent is the newest checkpoint git can
 * still read, or none, and the user is told once that the older one was lost. Before, that
 * checkpoint failed with "git status failed (exit 128): fatal: bad object HEAD", checkpoints went
 * off, and every later call of the session ran without one.
 */
import { readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { entriesOfType } from '../../support/agent-fixtures';
import { afterTheTest } from '../../support/after-the-test';
import { fileInCheckpoint, inCheckpoints, writeFileReply } from '../../support/checkpoint-reads';
import { scriptedAgentPerTest } from '../../support/scripted-agent';

const scripted = scriptedAgentPerTest({ server: { defaultReply: { text: 'done' } }, dirsPrefix: 'tole-lost-chain-' });

const objectFile = (directory: string, id: string): string => join(directory, 'objects', id.slice(0, 2), id.slice(2));

/** Every loose object of the directory, as a crash that kept none of them would leave them. */
function everyLooseObject(directory: string): string[] {
  const root = join(directory, 'objects');
  return readdirSync(root)
    .filter((dir) => /^[0-9a-f]{2}$/.test(dir))
    .flatMap((dir) => readdirSync(join(root, dir)).map((name) => join(root, dir, name)));
}

const damage: Record<string, (directory: string, id: string) => void> = {
  'left empty': (directory, id) => truncateSync(objectFile(directory, id), 0),
  'cut short': (directory, id) => truncateSync(objectFile(directory, id), 5),
  gone: (directory, id) => rmSync(objectFile(directory, id)),
  'gone with every object the crash did not keep (trees and blobs too)': (directory) => {
    for (const file of everyLooseObject(directory)) rmSync(file);
  },
};

async function setUp() {
  const at = (name: string): string => join(scripted.dirs.root, name);
  writeFileSync(at('a.txt'), 'a before\n');
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
  const lostNotices = (): string[] =>
    entriesOfType(store, 'notice')
      .map((entry) => entry.payload.text)
      .filter((text) => text.includes('was lost'));
  return { at, checkpoints, turn, lostNotices, directory: checkpoints.directory };
}

describe('a lost latest checkpoint', () => {
  for (const [how, harm] of Object.entries(damage)) {
    it(`${how}: the next call's checkpoint starts a new chain, said once, and the calls after it keep theirs`, async () => {
      const { at, turn, lostNotices, directory } = await setUp();
      const first = await turn('call_1', 'a.txt', 'a by tole\n');
      expect(first).toMatch(/^[0-9a-f]{40}$/);
      harm(directory, first);

      const second = await turn('call_2', 'b.txt', 'b by tole\n');
      expect(second).toMatch(/^[0-9a-f]{40}$/);
      expect(lostNotices()).toEqual([
        expect.stringContaining(
          `checkpoint ${first.slice(0, 12)} was lost (its commit cannot be read in ${directory}): this call's checkpoint starts the chain again, with no checkpoint before it`,
        ),
      ]);
      // The new chain's first checkpoint holds the whole workspace, read again from the files.
      expect(fileInCheckpoint(directory, second, 'a.txt')).toBe('a by tole\n');
      expect(inCheckpoints({ directory }, 'rev-list', '--count', second).trim()).toBe('1');

      const third = await turn('call_3', 'c.txt', 'c by tole\n');
      expect(third).toMatch(/^[0-9a-f]{40}$/);
      expect(lostNotices()).toHaveLength(1);
      expect(inCheckpoints({ directory }, 'rev-parse', `${third}^`).trim()).toBe(second);
      expect(inCheckpoints({ directory }, 'rev-parse', 'refs/tole/checkpoints').trim()).toBe(third);
      expect(fileInCheckpoint(directory, third, 'b.txt')).toBe('b by tole\n');
      expect(readFileSync(at('c.txt'), 'utf8')).toBe('c by tole\n');
    });
  }

  it('after a crash, a ref whose head is lost while HEAD still reads: the next tole goes on from HEAD, the newest that reads', async () => {
    const { turn, directory, checkpoints } = await setUp();
    const first = await turn('call_1', 'a.txt', 'a by tole\n');
    checkpoints.close();
    const ghost = 'f'.repeat(40);
    writeFileSync(join(directory, 'refs', 'tole', 'checkpoints'), `${ghost}\n`);
    // The next tole on the workspace: its first checkpoint.
    const next = await setUp();
    const second = await next.turn('call_2', 'b.txt', 'b by tole\n');
    expect(second).toMatch(/^[0-9a-f]{40}$/);
    expect(inCheckpoints({ directory }, 'rev-list', '--parents', '-n', '1', second).trim()).toBe(`${second} ${first}`);
    expect(next.lostNotices()).toEqual([
      expect.stringContaining(
        `checkpoint ${ghost.slice(0, 12)} was lost (its commit cannot be read in ${directory}): this call's checkpoint starts the chain again, after checkpoint ${first.slice(0, 12)}, the newest that can be read`,
      ),
    ]);
  });

  it('mid-session, the ref moved to a commit that cannot be read: the next checkpoint is not chained on it', async () => {
    const { turn, lostNotices, directory } = await setUp();
    const first = await turn('call_1', 'a.txt', 'a by tole\n');
    const ghost = 'e'.repeat(40);
    writeFileSync(join(directory, 'refs', 'tole', 'checkpoints'), `${ghost}\n`);
    const second = await turn('call_2', 'b.txt', 'b by tole\n');
    expect(second).toMatch(/^[0-9a-f]{40}$/);
    // Every commit of the chain reads: rev-list walks it whole.
    expect(inCheckpoints({ directory }, 'rev-list', '--parents', second).trim()).toBe(`${second} ${first}\n${first}`);
    expect(lostNotices()).toEqual([expect.stringContaining(`checkpoint ${ghost.slice(0, 12)} was lost`)]);
    const third = await turn('call_3', 'c.txt', 'c by tole\n');
    expect(inCheckpoints({ directory }, 'rev-parse', `${third}^`).trim()).toBe(second);
    expect(lostNotices()).toHaveLength(1);
  });
});
