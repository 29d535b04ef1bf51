/**
 * `tole sessions` prints what session files hold (first prompts, names, directories): a file
 * pulled from a team server, or written by anything else, can carry escape sequences there. The
 * listing shows them as plain text; no control character reaches the terminal.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseArgs } from '../../src/cli/args';
import { runSessions } from '../../src/cli/sessions-command';
import { seededRandom, systemClock } from '../../src/core/clock';
import { AppendBatch } from '../../src/core/session/cursor';
import { SessionStore } from '../../src/core/storage/session-store';
import { tempDirForTest } from '../support/after-the-test';

function listing(argv: string[]): string {
  const home = tempDirForTest('tole-listing-');
  const cwd = join(home, 'work\x1b]0;title\x07dir');
  mkdirSync(join(home, 'sessions'));
  mkdirSync(cwd);
  const store = SessionStore.create(join(home, 'sessions'), { clock: systemClock, random: seededRandom(5), cwd });
  const batch = new AppendBatch(store);
  batch.entry('user', { text: 'fix \x1b[2J\x1b[31mthe\x9b0m bug' });
  store.commit(batch.build());
  store.commit([{ kind: 'register', op: 'set', namespace: 'fact.session', key: 'name', value: 'n\x1b[5mame' }]);
  store.close();
  let out = '';
  const code = runSessions(parseArgs(['sessions', ...argv]), {
    cwd,
    env: { HOME: home, TOLE_HOME: home, PATH: '/usr/bin:/bin' },
    stdout: { write: (chunk: string) => ((out += chunk), true) } as unknown as NodeJS.WritableStream,
  });
  expect(code).toBe(0);
  return out;
}

describe('tole sessions', () => {
  it('prints first prompts, names and directories without their control characters', () => {
    const out = listing(['--all']);
    expect(out).toContain('fix [2J[31mthe0m bug');
    expect(out).toContain('n[5mame');
    expect(out).toContain('work]0;titledir');
    expect(out).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
  });
});
