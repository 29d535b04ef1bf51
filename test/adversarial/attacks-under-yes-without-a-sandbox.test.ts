/**
 * The attack corpus under `--yes` with no sandbox (TOLE_NO_SANDBOX=1): nothing tole cannot prove
 * inert runs without a key, so no attack has any effect (corpus/suite.ts says what is checked).
 */
import { expect, it } from 'vitest';
import { CORPUS } from './corpus/corpus';
import { corpusSuite } from './corpus/suite';

corpusSuite('none');

it('the corpus holds at least 150 cases, each id once, in every class it covers', () => {
  expect(CORPUS.length).toBeGreaterThanOrEqual(150);
  expect(new Set(CORPUS.map((c) => c.id)).size).toBe(CORPUS.length);
  expect(new Set(CORPUS.map((c) => c.cls))).toEqual(new Set([2, 3, 4, 6]));
});
