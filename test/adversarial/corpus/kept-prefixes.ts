/**
 * A session in which the user kept command prefixes (`p` at the approval box), made before a
 * world's run: one real committed approval record for each prefix, written through tole's own
 * session store, as the interactive tole writes it. The run resumes this session, so the prefixes
 * are in force only if tole's resume path restores them (kept-prefixes.ts in core).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Decision } from '../../../src/core/approval/approver';
import { seededRandom, systemClock } from '../../../src/core/clock';
import { AppendBatch } from '../../../src/core/session/cursor';
import { SessionStore } from '../../../src/core/storage/session-store';
import type { World } from './world';

/** Writes the session into the world's sessions folder and returns its path. */
export function seedKeptPrefixes(world: World, prefixes: readonly string[]): string {
  const dir = join(world.toleHome, 'sessions');
  mkdirSync(dir, { recursive: true });
  const store = SessionStore.create(dir, {
    clock: systemClock,
    random: seededRandom(11),
    cwd: world.ws,
  });
  try {
    const batch = new AppendBatch(store);
    batch.entry('user', { text: 'run the tests and show the status' });
    const calls = prefixes.map((prefix, i) => ({ id: `kept_${i}`, prefix }));
    batch.entry('assistant', {
      text: '',
      toolCalls: calls.map(({ id, prefix }) => ({ id, name: 'bash', arguments: JSON.stringify({ command: prefix }) })),
      model: 'm',
      finishReason: 'tool_calls',
    });
    for (const { id, prefix } of calls) {
      batch.entry('tool_intent', {
        callId: id,
        tool: 'bash',
        input: { command: prefix },
        subject: prefix,
        risk: 'Write',
        reason: 'runs a project command',
        replay: 'never',
        approval: null,
      });
      const decision: Decision = {
        approved: true,
        by: 'user',
        reason: `approved at the prompt, and commands starting with \`${prefix}\` allowed for this session`,
        allowsPrefix: prefix.split(' '),
      };
      batch.entry('approval', { callId: id, decision });
      batch.entry('tool_result', { callId: id, tool: 'bash', outcome: 'ok', content: 'ok', tier: 'hot' });
    }
    batch.entry('assistant', { text: 'Both ran.', toolCalls: [], model: 'm', finishReason: 'stop' });
    store.commit(batch.build());
    return store.path;
  } finally {
    store.close();
  }
}
