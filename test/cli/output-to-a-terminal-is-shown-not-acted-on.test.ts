/**
 * What the commands outside the screen print to a terminal passes through the one terminal
 * sanitizer: an escape in a config, a file name or an error message is shown, not acted on.
 * A pipe gets the bytes as they are.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main';
import { shownOnTerminal } from '../../src/cli/terminal-output';
import { tempDirForTest } from '../support/after-the-test';

class Capture {
  text = '';
  constructor(readonly isTTY: boolean) {}
  write(chunk: string | Uint8Array, ...rest: unknown[]): boolean {
    this.text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    const done = rest.find((arg) => typeof arg === 'function') as (() => void) | undefined;
    done?.();
    return true;
  }
}

const HOSTILE = 'echo ok\u001b]52;c;ZXZpbA==\u0007\u001b]0;pwned\u0007\u009b2J\u202egnp.exe';

async function trustHostile(isTTY: boolean): Promise<{ stdout: string; stderr: string }> {
  const home = tempDirForTest('tole-tty-home-');
  mkdirSync(join(home, '.config', 'tole'), { recursive: true });
  const cwd = tempDirForTest('tole-tty-project-');
  writeFileSync(join(cwd, 'tole.config.json'), JSON.stringify({ hooks: { sessionStart: HOSTILE } }));
  const stdout = new Capture(isTTY);
  const stderr = new Capture(isTTY);
  const env = { HOME: home, TOLE_HOME: join(home, '.tole') };
  const io = { argv: ['trust'], env, cwd, stdout: stdout as never, stderr: stderr as never };
  expect(await main(io)).toBe(0);
  return { stdout: stdout.text, stderr: stderr.text };
}

describe('output of the commands', () => {
  it('to a terminal: a hook command with OSC 52, a title, a C1 CSI and a bidi override is shown', async () => {
    const { stdout } = await trustHostile(true);
    expect(stdout).toContain('hook sessionStart: echo ok␛]52;c;ZXZpbA==␇␛]0;pwned␇⟨U+009B⟩2J⟨U+202E⟩gnp.exe');
    expect(stdout).not.toMatch(/[\u001b\u0007\u0080-\u009f\u202a-\u202e]/);
  });

  it('to a pipe: the bytes as they are', async () => {
    const { stdout } = await trustHostile(false);
    expect(stdout).toContain(HOSTILE);
  });

  it('a character or a sequence split across writes is shown whole', () => {
    const target = new Capture(true);
    const stream = shownOnTerminal(target as never);
    const bytes = Buffer.from('宽\u001b]52;c;eA==\u0007\u009b1m\r\n', 'utf8');
    for (let i = 0; i < bytes.length; i++) stream.write(bytes.subarray(i, i + 1));
    expect(target.text).toBe('宽␛]52;c;eA==␇⟨U+009B⟩1m\r\n');
  });
});
