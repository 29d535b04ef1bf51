/**
 * src/cli/later-modules.ts: the libraries the first frame does not need come from a second script
 * (dist/later.cjs), loaded on the first import of one of them. A missing script is an
 * error that says the install is incomplete and what to do, and a later call tries again; a
 * present one is loaded once, with tole's code cache, and gives each specifier's module.
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { LATER_SCRIPT, laterModule } from '../../src/cli/later-modules';
import { missingModuleMessage } from '../../src/core/missing-module';
import { tempDirForFile } from '../support/after-the-test';

const dir = tempDirForFile('tole-later-');
const cache = join(dir, 'cache');
const saved = process.env['XDG_CACHE_HOME'];
process.env['XDG_CACHE_HOME'] = cache;
afterAll(() => {
  if (saved === undefined) delete process.env['XDG_CACHE_HOME'];
  else process.env['XDG_CACHE_HOME'] = saved;
});

const url = pathToFileURL(join(dir, LATER_SCRIPT));

describe('the later script', () => {
  it('when missing: an error naming it, told as an incomplete install; nothing is kept', () => {
    let caught: unknown;
    try {
      laterModule('openai', url);
    } catch (error) {
      caught = error;
    }
    expect((caught as { code?: string }).code).toBe('MODULE_NOT_FOUND');
    expect(missingModuleMessage(caught)).toBe(
      `this install of tole is incomplete: Cannot find module '${join(dir, LATER_SCRIPT)}' (rebuild it with npm run build, or reinstall tole)`,
    );
  });

  it('of another build than the running one: refused, told as an update that needs a restart; nothing is kept', () => {
    const other = join(dir, 'other');
    mkdirSync(other);
    const file = join(other, LATER_SCRIPT);
    writeFileSync(
      file,
      '(function (exports, require, module, __filename, __dirname, TOLE_IMPORT_META_URL) {\n' +
        'module.exports = { "tole:build-id": "0123abcd", openai: () => ({ name: "openai of the new build" }) };\n})',
    );
    let caught: unknown;
    try {
      laterModule('openai', pathToFileURL(file), 'feedbeef');
    } catch (error) {
      caught = error;
    }
    const words = `tole was updated while this session ran (${file} is from build 0123abcd, this session is build feedbeef); restart tole to use the new version`;
    expect((caught as { code?: string }).code).toBe('TOLE_UPDATED');
    expect(missingModuleMessage(caught)).toBe(words);
    // A later.cjs from before build ids is refused too; one of this build is taken.
    writeFileSync(
      file,
      '(function (exports, require, module, __filename, __dirname, TOLE_IMPORT_META_URL) {\n' +
        'module.exports = { openai: () => ({ name: "openai" }) };\n})',
    );
    expect(() => laterModule('openai', pathToFileURL(file), 'feedbeef')).toThrow(
      `(${file} is from build unknown, this session is build feedbeef); restart tole`,
    );
  });

  it('once there, is loaded once and gives each module; a specifier it lacks is a clear error', () => {
    (globalThis as { toleLaterRuns?: number }).toleLaterRuns = 0;
    writeFileSync(
      join(dir, LATER_SCRIPT),
      '(function (exports, require, module, __filename, __dirname, TOLE_IMPORT_META_URL) {\n' +
        'globalThis.toleLaterRuns++;\n' +
        'module.exports = { openai: () => ({ name: "openai" }), zod: () => ({ name: "zod", from: __filename }) };\n})',
    );
    expect(laterModule('openai', url)).toEqual({ name: 'openai' });
    expect(laterModule('zod', url)).toEqual({ name: 'zod', from: join(dir, LATER_SCRIPT) });
    expect((globalThis as { toleLaterRuns?: number }).toleLaterRuns).toBe(1);
    expect(() => laterModule('pg', url)).toThrow(`Cannot find module 'pg' in ${join(dir, LATER_SCRIPT)}`);
    // Compiled from source this time: its cache is written a little later, not at once.
    expect(readdirSync(dir)).not.toContain('cache');
  });
});
