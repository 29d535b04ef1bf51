import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { parseArgs } from '../../src/cli/args';
import { main } from '../../src/cli/main';
import { openSession } from '../../src/cli/open-session';
import { seededRandom } from '../../src/core/clock';
import { skipUnavailable } from '../core/storage/conformance/backends';
import { tempDirForFile } from '../support/after-the-test';

const dir = tempDirForFile('tole-convert-cli-');

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const code = await main({ argv, env: { TOLE_HOME: join(dir, 'home') }, cwd: dir, stdout, stderr });
  return { code, out, err };
}

describe('tole convert PATH --to sqlite|jsonl', () => {
  it('is a usage error (exit 2) without a path, without --to, with an unknown format, or to the format it already has', async () => {
    expect(await run('convert', '--to', 'sqlite')).toMatchObject({
      code: 2,
      err: expect.stringContaining('tole convert PATH --to sqlite|jsonl'),
    });
    expect(await run('convert', 'demo.jsonl')).toMatchObject({ code: 2 });
    expect(await run('convert', 'demo.jsonl', '--to', 'csv')).toMatchObject({
      code: 2,
      err: expect.stringContaining('--to must be sqlite or jsonl, not "csv"'),
    });
    expect(await run('convert', 'demo.jsonl', '--to', 'jsonl')).toMatchObject({
      code: 2,
      err: expect.stringContaining('is already a jsonl session'),
    });
  });

  it('accepts --storage jsonl|sqlite for a new session only', () => {
    expect(parseArgs(['--storage', 'sqlite']).storage).toBe('sqlite');
    expect(() => parseArgs(['--storage', 'mysql'])).toThrowError('--storage must be jsonl or sqlite, not "mysql"');
    const path = join(dir, 'x.jsonl');
    expect(() =>
      openSession(parseArgs(['--resume', path, '--storage', 'sqlite']), dir, dir, seededRandom(1)),
    ).toThrowError(/--storage sets the format of a new session/);
  });

  describe('with better-sqlite3', () => {
    if (skipUnavailable('sqlite')) return;

    it('writes the copy next to the source and prints what it holds; a second run refuses to overwrite it (exit 1)', async () => {
      const source = join(dir, 'demo.jsonl');
      copyFileSync(join(import.meta.dirname, '..', '..', 'examples', 'demo.jsonl'), source);
      const first = await run('convert', 'demo.jsonl', '--to', 'sqlite');
      expect(first).toMatchObject({ code: 0, err: '' });
      expect(first.out).toContain(join(dir, 'demo.db'));
      expect(first.out).toMatch(/17 entries, 5 register cells, 7 usage rows, last seq 91/);
      expect(existsSync(join(dir, 'demo.db'))).toBe(true);
      expect(await run('check', 'demo.db')).toMatchObject({ code: 0, out: expect.stringContaining('sound') });
      expect(await run('convert', 'demo.jsonl', '--to', 'sqlite')).toMatchObject({
        code: 1,
        err: expect.stringContaining('already exists'),
      });
    });

    it('creates a new session as a .db with --storage sqlite', () => {
      const opened = openSession(parseArgs(['--storage', 'sqlite']), join(dir, 'sessions'), dir, seededRandom(2));
      expect(opened.store.path).toMatch(/\.db$/);
      opened.store.close();
    });
  });
});
