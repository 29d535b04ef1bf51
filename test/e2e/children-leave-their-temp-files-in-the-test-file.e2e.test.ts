/**
 * A process-tier file runs with TMPDIR in a directory of its own, removed when it ends
 * (test/support/tmpdir-per-file.ts): the temp directories of the test and of every process it
 * starts go there, so that nothing is left in /tmp, even by a tole killed before it could clean up.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { detectSandbox } from '../../src/core/tools/sandbox';
import { ensureBuilt, TOLE_JS } from '../support/built-tole';
import { startChatServer, type ChatServer } from '../support/chat-server';
import { FILE_TMPDIR_PREFIX } from '../support/tmpdir-per-file-name';
import { tempDirForTest } from '../support/after-the-test';
import { TerminalDriver } from './terminal-driver';

const PRINT_TMPDIR = ['-e', "process.stdout.write(`tmpdir=${require('node:os').tmpdir()}\\n`)"];

let driver: TerminalDriver | undefined;
let server: ChatServer | undefined;
afterEach(() => {
  driver?.kill('SIGKILL');
  driver = undefined;
});
afterAll(async () => {
  await server?.close();
});

describe("a process-tier file's temp directory", () => {
  it('is a directory of its own in the outer one, and the processes the test starts use it', async () => {
    const own = tmpdir();
    expect(basename(own).startsWith(FILE_TMPDIR_PREFIX)).toBe(true);
    expect(process.env['TMPDIR']).toBe(own);
    expect(dirname(tempDirForTest('tole-own-'))).toBe(own);

    expect(execFileSync(process.execPath, PRINT_TMPDIR, { encoding: 'utf8' })).toBe(`tmpdir=${own}\n`);

    // The terminal driver starts its program with an environment of its own making.
    driver = new TerminalDriver({ args: PRINT_TMPDIR, cwd: own, env: {} });
    await driver.exit;
    expect(driver.raw).toContain(`tmpdir=${own}`);
  });

  // tole makes its session's temp directory only where a sandbox will show it at /tmp.
  it.runIf(detectSandbox(process.platform, process.env['PATH']))(
    "holds the session's temp directory of a tole killed with SIGKILL",
    async () => {
      ensureBuilt();
      server = await startChatServer({ defaultReply: { text: 'done' } });
      const workspace = tempDirForTest('tole-killed-ws-');
      driver = new TerminalDriver({
        args: [TOLE_JS, '--base-url', server.url, '--model', 'gpt-4.1'],
        cwd: workspace,
        env: { TOLE_HOME: tempDirForTest('tole-killed-home-'), OPENAI_API_KEY: 'sk-test' },
      });
      await driver.waitFor('type a prompt');
      driver.kill('SIGKILL');
      await driver.exit;
      // Its exit handler never ran: the folder is still there, in the file's directory.
      expect(readdirSync(tmpdir()).filter((name) => name.startsWith('tole-session-'))).toHaveLength(1);
    },
    60_000,
  );
});
