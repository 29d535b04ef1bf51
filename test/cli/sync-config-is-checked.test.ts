import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, readConfigFile } from '../../src/cli/config';
import { parseArgs } from '../../src/cli/args';
import { syncUrlFor } from '../../src/cli/sync-command';
import { tempDirForTest } from '../support/after-the-test';

function configWith(sync: unknown): string {
  const dir = tempDirForTest('tole-sync-config-');
  const file = join(dir, 'tole.config.json');
  writeFileSync(file, JSON.stringify({ sync }));
  return file;
}

describe('the config sync section and --to / --from', () => {
  it('takes a PostgreSQL URL and names the field when it is not one', () => {
    expect(readConfigFile(configWith({ url: 'postgres://tole@db:5432/team', person: 'ada' })).sync).toEqual({
      url: 'postgres://tole@db:5432/team',
      person: 'ada',
    });
    expect(() => readConfigFile(configWith({ url: 'http://db:5432' }))).toThrow(ConfigError);
    expect(() => readConfigFile(configWith({ url: 'http://db:5432' }))).toThrow(
      /field "sync.url": expected a PostgreSQL URL such as postgres:\/\/tole@db.example:5432\/tole/,
    );
    expect(() => readConfigFile(configWith({ url: 'postgres://x@y/z', every: 3 }))).toThrow(
      /field "sync.every" is not a config field/,
    );
  });

  it('--from takes a URL only when one follows; without one the config or TOLE_SYNC_URL names the server', () => {
    expect(parseArgs(['sessions', '--from', 'postgres://a@b/c']).from).toBe('postgres://a@b/c');
    const bare = parseArgs(['export', 'ID', '--from', '--format', 'json']);
    expect(bare.from).toBe('');
    expect(bare.positional).toEqual(['ID']);
    expect(syncUrlFor('', {}, { sync: { url: 'postgres://cfg@h/d' } }, '--from')).toBe('postgres://cfg@h/d');
    expect(
      syncUrlFor('', { TOLE_SYNC_URL: 'postgres://env@h/d' }, { sync: { url: 'postgres://cfg@h/d' } }, '--from'),
    ).toBe('postgres://env@h/d');
    expect(() => syncUrlFor(undefined, {}, {}, '--to')).toThrow(
      /--to needs a server: --to postgres:\/\/USER@HOST:PORT\/DATABASE/,
    );
    expect(parseArgs(['sync', '--to', 'postgres://a@b/c'])).toMatchObject({ command: 'sync', to: 'postgres://a@b/c' });
  });
});
