/**
 * A session's first frame builds no zod schema (and the full-screen script does not even evaluate
 * zod): tools, config, theme, trust store and agent
 * profiles build theirs on first use. A config file that exists is still checked before it is
 * used (its schema is then built before the frame). Counted in the built tole by a preload.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, TOLE_JS } from '../support/built-tole';
import { TerminalDriver } from './terminal-driver';
import { tempDirForTest } from '../support/after-the-test';

const PROBE = resolve('test/support/zod-before-first-frame.mjs');

let driver: TerminalDriver | undefined;
beforeAll(() => ensureBuilt(), 120_000);
afterEach(() => driver?.kill('SIGKILL'));

/** Starts the built tole with the probe: the schemas built before its first frame, and whether zod was evaluated. */
async function beforeFirstFrame(config?: object): Promise<{ schemas: number; zodEvaluated: boolean }> {
  const home = tempDirForTest('tole-e2e-noschema-home-');
  if (config) {
    mkdirSync(join(home, '.config', 'tole'), { recursive: true });
    writeFileSync(join(home, '.config', 'tole', 'config.json'), JSON.stringify(config));
  }
  const workspace = tempDirForTest('tole-e2e-noschema-');
  const out = join(home, 'probe.txt');
  driver = new TerminalDriver({
    args: ['--import', PROBE, TOLE_JS],
    cwd: workspace,
    env: { HOME: home, XDG_CACHE_HOME: join(home, 'cache'), TOLE_HOME: join(home, '.tole'), ZOD_PROBE_FILE: out },
    columns: 120,
    rows: 40,
  });
  await driver.waitFor((s) => s.includes('no model provider yet'));
  await driver.waitFor(() => {
    try {
      return readFileSync(out, 'utf8').includes('\n');
    } catch {
      return false;
    }
  });
  const match = /zod-schemas-before-first-frame (\d+) zod-evaluated (true|false)/.exec(readFileSync(out, 'utf8'));
  expect(match, 'the probe saw the first frame').not.toBeNull();
  return { schemas: Number(match![1]), zodEvaluated: match![2] === 'true' };
}

describe('the first frame of a session', () => {
  it('builds no zod schema, nor evaluates zod, when there is no config file', async () => {
    expect(await beforeFirstFrame()).toEqual({ schemas: 0, zodEvaluated: false });
  }, 60_000);

  it('still checks a config file that exists before it is used (the probe counts those schemas)', async () => {
    const { schemas, zodEvaluated } = await beforeFirstFrame({ theme: 'light' });
    expect(schemas).toBeGreaterThan(0);
    expect(zodEvaluated).toBe(true);
  }, 60_000);
});
