/**
 * A session whose calls went to a model with no known price has a cost that is only a lower
 * bound: `tole sessions` says `+?` after it, as the usage pane does, instead of a `$0` that reads
 * as free. A priced session shows its cost as it is.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseArgs } from '../../src/cli/args';
import { runSessions } from '../../src/cli/sessions-command';
import { callUsage, sessionWithUsage } from '../support/usage-sessions';
import { tempDirForTest } from '../support/after-the-test';

describe('tole sessions', () => {
  it('shows +? after the cost of a session with an unpriced call, and the cost alone otherwise', () => {
    const home = tempDirForTest('tole-unpriced-');
    const sessions = join(home, 'sessions');
    mkdirSync(sessions);
    sessionWithUsage(sessions, home, 1, 'local model', callUsage('llama3.2:3b', 0, false));
    sessionWithUsage(sessions, home, 2, 'priced model', callUsage('gpt-4.1', 410_000, true));
    let out = '';
    const code = runSessions(parseArgs(['sessions', '--all']), {
      cwd: home,
      env: { HOME: home, TOLE_HOME: home, PATH: '/usr/bin:/bin' },
      stdout: { write: (chunk: string) => ((out += chunk), true) } as unknown as NodeJS.WritableStream,
    });
    expect(code).toBe(0);
    const line = (prompt: string) => out.split('\n').find((l) => l.includes(prompt)) ?? '';
    expect(line('local model')).toContain('$0+?');
    expect(line('priced model')).toContain('$0.41');
    expect(line('priced model')).not.toContain('+?');
  });
});
