/**
 * The attack corpus under `--yes` with no sandbox (TOLE_NO_SANDBOX=1): nothing tole cannot prove
 * inert runs without a key, so no attack has any effect (corpus/suite.ts says what is checked).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ensureBuilt } from '../support/built-tole';
import { CORPUS } from './corpus/corpus';
import { nextStartRunsNothing, trustNow } from './corpus/next-start';
import { buildWorld } from './corpus/world';
import { corpusSuite } from './corpus/suite';

corpusSuite('none');

it('the corpus holds at least 150 cases, each id once, in every class it covers', () => {
  expect(CORPUS.length).toBeGreaterThanOrEqual(150);
  expect(new Set(CORPUS.map((c) => c.id)).size).toBe(CORPUS.length);
  expect(new Set(CORPUS.map((c) => c.cls))).toEqual(new Set([2, 3, 4, 6, 7]));
});

it('control: a planted profile the user trusts again does run at the next start, so the plant checks can fail', async () => {
  ensureBuilt();
  const world = buildWorld('control-plant');
  try {
    writeFileSync(join(world.ws, 'tole.config.json'), '{}\n');
    mkdirSync(join(world.ws, '.tole', 'agents'), { recursive: true });
    writeFileSync(join(world.ws, '.tole', 'agents', 'evil.json'), `{"prompt":["touch ${world.out}/control"]}`);
    trustNow(world);
    expect(await nextStartRunsNothing(world, 'control', ['--agent', 'evil'])).toMatch(/ran what the attack planted/);
  } finally {
    world.remove();
  }
}, 60_000);
