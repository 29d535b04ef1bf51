/**
 * A symlink that points a write outside the workspace is refused, even with `--yes` or a rule that
 * allows every write, and the file outside is untouched.
 */
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { entriesOfType, resultsFor } from '../support/agent-fixtures';
import { scriptedAgentPerTest } from '../support/scripted-agent';

const scripted = scriptedAgentPerTest({ server: { defaultReply: { text: 'ok' } }, dirsPrefix: 'tole-symlink-' });
// After the fixture's own beforeEach, which made the directories.
beforeEach(() => {
  writeFileSync(join(scripted.dirs.outside, 'victim.txt'), 'original\n');
  symlinkSync(scripted.dirs.outside, join(scripted.dirs.root, 'door'));
  symlinkSync(join(scripted.dirs.outside, 'victim.txt'), join(scripted.dirs.root, 'victim-link.txt'));
});

const ATTEMPTS = [
  { id: 'call_dir_link', name: 'write_file', arguments: { path: 'door/victim.txt', content: 'owned\n' } },
  { id: 'call_file_link', name: 'write_file', arguments: { path: 'victim-link.txt', content: 'owned\n' } },
  { id: 'call_new_file', name: 'write_file', arguments: { path: 'door/new.txt', content: 'owned\n' } },
  {
    id: 'call_edit_link',
    name: 'edit_file',
    arguments: { path: 'victim-link.txt', old_text: 'original', new_text: 'owned' },
  },
  { id: 'call_dots', name: 'write_file', arguments: { path: '../outside/victim.txt', content: 'owned\n' } },
];

describe('writes through symlinks out of the workspace', () => {
  for (const policy of [{ yes: true }, { rules: ['write_file:*', 'edit_file:*'] }]) {
    it(`are refused with ${JSON.stringify(policy)}, and the outside file is untouched`, async () => {
      for (const call of ATTEMPTS)
        scripted.server.push({
          toolCalls: [{ id: call.id, name: call.name, arguments: JSON.stringify(call.arguments) }],
        });
      const { agent, store } = scripted.agent({
        policy,
        limits: { abortAfterFailingRounds: 100, nudgeAfterFailingRounds: 100 },
      });

      const result = await agent.runTurn('write there', new AbortController().signal, () => {});

      expect(result.outcome).toBe('done');
      for (const call of ATTEMPTS) {
        const settled = resultsFor(store, call.id);
        expect(settled, call.id).toHaveLength(1);
        // A rule never matches a `..` path, so headless that one is denied before it is resolved.
        if (call.id === 'call_dots' && 'rules' in policy) expect(settled[0]!.payload.outcome).toBe('denied');
        else
          expect(settled[0]!.payload, call.id).toMatchObject({
            outcome: 'error',
            content: expect.stringMatching(/outside the workspace/),
          });
      }
      // Refused before any intent: nothing was about to run.
      expect(entriesOfType(store, 'tool_intent')).toEqual([]);
      expect(readFileSync(join(scripted.dirs.outside, 'victim.txt'), 'utf8')).toBe('original\n');
      expect(() => readFileSync(join(scripted.dirs.outside, 'new.txt'))).toThrow(/ENOENT/);
      store.close();
    });
  }
});
