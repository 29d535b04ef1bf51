import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseArgs } from '../../src/cli/args';
import { runSessions } from '../../src/cli/sessions-command';
import { tempDirForTest } from '../support/after-the-test';

function capture(): { stream: NodeJS.WritableStream; text: () => string } {
  let text = '';
  const stream = { write: (chunk: string) => ((text += chunk), true) } as unknown as NodeJS.WritableStream;
  return { stream, text: () => text };
}

describe('tole sessions', () => {
  it('names a session file whose header cannot be read instead of hiding it', () => {
    const home = tempDirForTest('tole-unreadable-');
    const dir = join(home, 'sessions');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, '1700000000000000000-abcdef.jsonl'), '\u0000\u0000garbage with no header');
    const out = capture();
    const code = runSessions(parseArgs(['sessions', '--all']), {
      cwd: home,
      env: { TOLE_HOME: home, HOME: home },
      stdout: out.stream,
    });
    expect(code).toBe(0);
    expect(out.text()).toContain('no sessions in');
    expect(out.text()).toContain('1 file in');
    expect(out.text()).toContain('1700000000000000000-abcdef.jsonl');
    expect(out.text()).toContain('tole check PATH');
  });
});
