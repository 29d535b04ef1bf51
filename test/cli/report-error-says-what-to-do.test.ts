/**
 * How a failure is told on stderr, wherever it ends tole (a command, or the full screen crashing):
 * a storage failure with what to do next, unless its message already says it; anything
 * unexpected as an internal error, its stack only when TOLE_DEBUG asks for it.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { MainIo } from '../../src/cli/main-io';
import { reportError } from '../../src/cli/report-error';
import { StorageError } from '../../src/core/storage/errors';

async function told(error: unknown, env: NodeJS.ProcessEnv = {}): Promise<{ code: number; text: string }> {
  const stderr = new PassThrough();
  let text = '';
  stderr.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  const io: MainIo = { argv: [], env, cwd: '/', stdout: new PassThrough(), stderr };
  const code = await reportError(error, io);
  return { code, text };
}

describe('reportError', () => {
  const path = '/s/1.jsonl';

  it('adds the way to keep the lines before a corrupt one', async () => {
    const { code, text } = await told(
      new StorageError('corrupt', `${path} line 7: checksum mismatch`, { path, line: 7 }),
    );
    expect(code).toBe(1);
    expect(text).toBe(
      `tole: ${path} line 7: checksum mismatch (to recover what came before it: head -n 6 ${path} > recovered.jsonl, then tole --resume recovered.jsonl; tole check shows what the file holds)\n`,
    );
  });

  it('adds nothing to a storage failure whose message says what to do', async () => {
    const message = `${path} line 7: the payload of entry "e_3" is not JSON; nothing was changed: move ${path}.index aside and open the session again`;
    const { code, text } = await told(new StorageError('corrupt', message, { path, line: 7, ownRemedy: true }));
    expect(code).toBe(1);
    expect(text).toBe(`tole: ${message}\n`);
  });

  it('names anything unexpected an internal error, with its stack only under TOLE_DEBUG', async () => {
    const failure = new TypeError('cannot read properties of undefined');
    const plain = await told(failure);
    expect(plain.code).toBe(1);
    expect(plain.text).toBe('tole: internal error: cannot read properties of undefined\n');
    const debug = await told(failure, { TOLE_DEBUG: '1' });
    expect(debug.text).toBe(`tole: internal error: cannot read properties of undefined\n${failure.stack}\n`);
  });
});
