/**
 * How many cases a fast-check property runs, from one setting: TOLE_FC_RUNS (default 100,
 * fast-check's own default). Every property takes its count from here, and fc-setup.ts makes it
 * the default of a property that names none; CI, or anyone hunting a bug, may raise it
 * (`TOLE_FC_RUNS=2000 npx vitest run test/core/storage`).
 */

export const DEFAULT_FC_RUNS = 100;

/** The setting read from `value` (TOLE_FC_RUNS); a clear error for anything but a whole number of cases. */
export function parseFcRuns(value: string | undefined): number {
  if (value === undefined || value === '') return DEFAULT_FC_RUNS;
  const runs = Number(value);
  if (!Number.isInteger(runs) || runs < 1)
    throw new Error(
      `TOLE_FC_RUNS=${JSON.stringify(value)}: give a whole number of cases per property, 1 or more (the default is ${DEFAULT_FC_RUNS})`,
    );
  return runs;
}

/**
 * The cases one property runs: the setting times `share`, at least one. A property whose cases
 * cost far more than most (a whole screen rendered, a session written and replayed per case)
 * takes a share below 1, so that raising the setting raises every property alike.
 */
export function fcRuns(share = 1, setting = parseFcRuns(process.env['TOLE_FC_RUNS'])): number {
  return Math.max(1, Math.round(setting * share));
}
