/**
 * A descriptor tole inherits from whatever started it (a terminal, an editor, a script that left
 * one open) reaches no confined command: through a folder's descriptor, or one for a file, a
 * command would write the host outside every mount the sandbox made (/proc/self/fd/N leads past
 * them). The built tole runs under --yes from a bash that holds a folder outside the workspace
 * open on 100 and a file outside on 101 (node itself closes low ones
 * it inherits, not these); the model's commands try both. Before the sandbox closed
 * them, both writes landed outside.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chatRequests, tempDirs } from '../support/agent-fixtures';
import { TOLE_JS } from '../support/built-tole';
import { fileChatServer } from '../support/file-chat-server';
import { detectSandbox } from '../../src/core/tools/sandbox';

const sandbox = detectSandbox(process.platform, process.env['PATH']);
if (!sandbox) console.log('skipping: no working bwrap here');

const chat = fileChatServer({ defaultReply: { text: 'done' } }, { built: true });

/** The built tole, started from a bash holding `outside` open on 100 and `outside/log` on 101. */
function toleHoldingDescriptors(
  outside: string,
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(
    'bash',
    [
      '--norc',
      '-c',
      'exec 100<"$1" 101>>"$1/log"; shift; exec "$@"',
      'bash',
      outside,
      process.execPath,
      TOLE_JS,
      ...args,
    ],
    { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr })));
}

describe.skipIf(!sandbox)('confined commands inherit no descriptor of tole', () => {
  it('neither a folder nor a file tole was handed reaches a command run without a key', async () => {
    const d = tempDirs('tole-fds-');
    const command = [
      'ls /proc/self/fd | tr "\\n" " "',
      'echo escaped > /proc/self/fd/100/escaped.txt',
      'echo escaped-101 >&101',
      'cat /proc/self/fd/100/log',
    ].join('; ');
    chat.server.push(
      { toolCalls: [{ id: 'call_fd', name: 'bash', arguments: JSON.stringify({ command }) }] },
      { text: 'done' },
    );
    const run = await toleHoldingDescriptors(
      d.outside,
      ['-p', 'try the descriptors', '--yes', '--base-url', chat.server.url, '--model', 'm'],
      d.root,
      { PATH: process.env['PATH'], HOME: d.parent, TOLE_HOME: d.home, LANG: 'C.UTF-8' },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(join(d.outside, 'escaped.txt'))).toBe(false);
    expect(existsSync(join(d.outside, 'log')) ? readFileSync(join(d.outside, 'log'), 'utf8') : '').toBe('');
    const back = JSON.stringify(chatRequests(chat.server).at(-1)?.body);
    // The listing the model read: stdin, stdout, stderr and ls's own folder descriptor.
    expect(back).toContain('0 1 2 3 bash: line 1');
  });
});
