/**
 * tole writes a checkpoint's commit object itself, and a crash right after a checkpoint can leave
 * it empty (written, not yet on the disk) or take it: the ref and the session's lines still name
 * it. A restore to such a checkpoint must say the checkpoint is lost, write nothing, and never
 * crash.
 */
import { readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SessionCommands } from '../../../src/core/session/session-commands';
import { entriesOfType } from '../../support/agent-fixtures';
import { afterTheTest } from '../../support/after-the-test';
import { writeFileReply } from '../../support/checkpoint-reads';
import { scriptedAgentPerTest } from '../../support/scripted-agent';

const scripted = scriptedAgentPerTest({ server: { defaultReply: { text: 'done' } }, dirsPrefix: 'tole-lost-cp-' });

const damage: Record<string, (file: string) => void> = {
  'left empty': (file) => truncateSync(file, 0),
  'cut short': (file) => truncateSync(file, 5),
  gone: (file) => rmSync(file),
};

describe('a checkpoint whose commit object was lost', () => {
  for (const [how, harm] of Object.entries(damage)) {
    it(`${how}: a restore to it says it is lost and writes nothing`, async () => {
      const at = (name: string): string => join(scripted.dirs.root, name);
      writeFileSync(at('a.txt'), 'a before\n');
      const built = scripted.agent({ policy: { yes: true }, checkpointHome: scripted.dirs.home });
      afterTheTest(() => built.store.close());
      const { agent, store } = built;
      const directory = agent['deps'].checkpoints!.directory;
      scripted.server.push(writeFileReply('call_w', 'a.txt', 'a by tole\n'));
      expect((await agent.runTurn('write a.txt', new AbortController().signal, () => {})).outcome).toBe('done');
      const [intent] = entriesOfType(store, 'tool_intent');
      const checkpoint = intent!.payload.checkpoint!;
      const object = join(directory, 'objects', checkpoint.slice(0, 2), checkpoint.slice(2));
      harm(object);

      const [prompt] = entriesOfType(store, 'user');
      const commands = new SessionCommands(store, agent, () => false);
      const outcome = await commands.restore(prompt!.id, () => {});
      expect(outcome).toMatchObject({ ok: false });
      const said = outcome.ok ? '' : outcome.message;
      expect(said).toContain(`checkpoint ${checkpoint.slice(0, 12)} is lost`);
      expect(said).toContain(how === 'gone' ? 'its commit is not there' : 'its commit is there damaged');
      expect(said).toContain('nothing was written');
      expect(readFileSync(at('a.txt'), 'utf8')).toBe('a by tole\n');
    });
  }
});
