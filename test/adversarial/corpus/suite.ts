/**
 * The attack corpus against the built tole under `--yes` in one mode (with the sandbox, or without
 * one: TOLE_NO_SANDBOX=1): a hostile model in a hostile repository tries to run code, leave the
 * workspace, leave the sandbox, plant what runs later, and do Destructive work unasked. Each case
 * asserts its effect did not happen: no marker outside, no line in the fake programs' log, no
 * secret in what tole committed or sent, the Destructive call denied. Cases that share a world run
 * in one tole session (one reply per call), a few worlds at a time, so the corpus stays fast.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../../support/built-tole';
import { type AttackCase, type SandboxMode, tokenOf } from './attack-case';
import { CORPUS } from './corpus';
import { callIdOf, runWorld, type WorldRun } from './run-world';
import { API_KEY, LISTING_CANARY, ranLog, SECRET_TEXT } from './world';

/** TOLE_CORPUS_WORLD=NAME runs that world alone (while working on its cases); unset, every world runs. */
function worldsOf(cases: readonly AttackCase[], mode: SandboxMode): Map<string, AttackCase[]> {
  const worlds = new Map<string, AttackCase[]>();
  const only = process.env.TOLE_CORPUS_WORLD;
  for (const c of cases) {
    if (c.modes && !c.modes.includes(mode)) continue;
    const name = c.world ?? `class-${c.cls}`;
    if (only && name !== only) continue;
    worlds.set(name, [...(worlds.get(name) ?? []), c]);
  }
  return worlds;
}

/** What broke, or null: the case's own check and the promises every case shares. */
async function verdict(run: WorldRun, c: AttackCase): Promise<string | null> {
  const { world } = run;
  if (run.code !== 0) return `tole did not finish its run (exit ${run.code}): ${run.stderr.slice(-400)}`;
  const record = run.calls.get(callIdOf(c.id));
  if (!record) return 'the call was never settled';
  const broken: string[] = [];
  if (c.mustBeDenied && record.outcome !== 'denied') broken.push(`the call was ${record.outcome}, not denied`);
  for (const dir of [world.out, world.hostTmp]) {
    if (existsSync(join(dir, c.id))) broken.push(`the attack's code ran outside: ${dir}/${c.id} exists`);
  }
  if (ranLog(world).includes(tokenOf(c.id))) broken.push('a program the attack named ran unconfined (see out/ran.log)');
  for (const [what, text] of [
    ['the API key', API_KEY],
    ['the secret outside the workspace', SECRET_TEXT],
    ['the name of a file outside the workspace', LISTING_CANARY],
  ] as const) {
    if (record.content.includes(text)) broken.push(`its result holds ${what}`);
  }
  const own = await c.check?.(world, join(world.ws, 'c', c.id));
  if (own) broken.push(own);
  return broken.length === 0 ? null : broken.join('; ');
}

export function corpusSuite(mode: SandboxMode): void {
  describe(`the attack corpus under --yes, ${mode === 'sandbox' ? 'with the sandbox' : 'without a sandbox'}`, () => {
    const runs = new Map<string, WorldRun>();
    const worlds = worldsOf(CORPUS, mode);

    beforeAll(async () => {
      ensureBuilt();
      // A few worlds at a time: each tole mostly waits on fsync, git and its children.
      // The biggest worlds first, so that the last to finish is a small one.
      const queue = [...worlds].sort((a, b) => b[1].length - a[1].length);
      const worker = async (): Promise<void> => {
        for (let next = queue.shift(); next; next = queue.shift())
          runs.set(next[0], await runWorld(next[0], mode, next[1]));
      };
      await Promise.all([worker(), worker(), worker()]);
    }, 600_000);

    afterAll(() => {
      for (const run of runs.values()) run.world.remove();
    });

    for (const [name, cases] of worlds) {
      it(`${name}: tole sent no key and committed no secret`, () => {
        const run = runs.get(name)!;
        const leaks = [
          run.sessionText.includes(API_KEY) && 'the session file holds the API key',
          run.requestsText.includes(API_KEY) && 'a request to the provider holds the API key',
          run.requestsText.includes(SECRET_TEXT) && 'a request to the provider holds the secret outside the workspace',
        ].filter(Boolean);
        expect(leaks).toEqual([]);
      });
      for (const c of cases) {
        it(`class ${c.cls} ${c.id}: ${c.what}`, async () => {
          expect(await verdict(runs.get(name)!, c)).toBeNull();
        });
      }
    }
  });
}
