/**
 * The sandbox try that tole starts while it loads (detectSandboxSoon) finds what the blocking try
 * finds: the machine's sandbox when it works, nothing when the program is there but refuses.
 */
import { chmodSync, closeSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectSandbox, detectSandboxSoon } from '../../../src/core/tools/sandbox';
import { tempDirForFile } from '../../support/after-the-test';

const dir = tempDirForFile('tole-sandbox-soon-');

/** A directory whose sandbox program (first on PATH) exits with `code`. */
function fakeSandbox(code: number, name = `exits-${code}`): string {
  const bin = join(dir, name);
  mkdirSync(bin, { recursive: true });
  for (const name of ['bwrap', 'sandbox-exec']) {
    const path = join(bin, name);
    writeFileSync(path, `#!/bin/sh\nexit ${code}\n`);
    chmodSync(path, 0o755);
  }
  return bin;
}

describe('detectSandboxSoon', () => {
  it('finds the same sandbox as detectSandbox on this machine', async () => {
    expect(await detectSandboxSoon(process.platform, process.env['PATH'])).toEqual(
      detectSandbox(process.platform, process.env['PATH']),
    );
  });

  it('finds none when the sandbox program refuses the try, and one when it runs it', async () => {
    const refuses = fakeSandbox(1);
    expect(await detectSandboxSoon('linux', refuses)).toBeNull();
    expect(detectSandbox('linux', refuses)).toBeNull();
    const runs = fakeSandbox(0);
    expect(await detectSandboxSoon('linux', runs)).toEqual({ kind: 'bwrap', program: join(runs, 'bwrap') });
  });

  it('finds none, as detectSandbox does, when the program cannot be started at all (spawn throws)', async () => {
    const busy = fakeSandbox(0, 'busy');
    // Open for writing, the program cannot be run (ETXTBSY), and Node's spawn throws at once
    // instead of emitting `error`: the try's promise rejected, and tole -p died of it.
    const writer = openSync(join(busy, 'bwrap'), 'r+');
    try {
      expect(await detectSandboxSoon('linux', busy)).toBeNull();
      expect(detectSandbox('linux', busy)).toBeNull();
    } finally {
      closeSync(writer);
    }
  });

  it('finds none on a platform without one', async () => {
    expect(await detectSandboxSoon('win32', process.env['PATH'])).toBeNull();
  });
});
