/** fast-check's run count comes from TOLE_FC_RUNS (test/support/fc-runs.ts), in every property. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_FC_RUNS, fcRuns, parseFcRuns } from '../support/fc-runs';
import { REPO_ROOT } from '../support/repo-root';
import { testFiles } from '../support/tiers';

describe('the property run count', () => {
  it('is TOLE_FC_RUNS, or the default when unset or empty', () => {
    expect(parseFcRuns(undefined)).toBe(DEFAULT_FC_RUNS);
    expect(parseFcRuns('')).toBe(DEFAULT_FC_RUNS);
    expect(parseFcRuns('2000')).toBe(2000);
  });

  it('refuses what is not a whole number of cases, saying what to give', () => {
    for (const bad of ['abc', '0', '-5', '1.5', '1e400'])
      expect(() => parseFcRuns(bad)).toThrow(/TOLE_FC_RUNS=.*give a whole number of cases per property, 1 or more/);
  });

  it('scales by a property’s share, never below one case', () => {
    expect(fcRuns(1, 300)).toBe(300);
    expect(fcRuns(0.25, 300)).toBe(75);
    expect(fcRuns(0.01, 10)).toBe(1);
  });

  it('is the default of a property that names none', () => {
    expect(fc.readConfigureGlobal().numRuns).toBe(fcRuns());
  });

  it('is what every property in the tests names, if it names one', () => {
    const literal: string[] = [];
    const self = 'test/arch/property-runs-come-from-one-setting.test.ts';
    for (const path of testFiles(REPO_ROOT).filter((path) => path !== self)) {
      const text = readFileSync(join(REPO_ROOT, path), 'utf8');
      for (const match of text.matchAll(/numRuns:\s*([^,}\n]+)/g)) {
        const count = match[1] as string;
        // A constant named RUNS counts only when the file makes it from fcRuns (another variable read
        // once was TOLE_PROPERTY_RUNS, a setting of its own that CI never raised).
        const fromTheSetting =
          /^fcRuns\([^()]*\)$/.test(count.trim()) ||
          (/^RUNS$/.test(count.trim()) && /^const RUNS = fcRuns\([^()]*\);$/m.test(text));
        if (!fromTheSetting) literal.push(`${path}: numRuns: ${count}`);
      }
    }
    expect(literal).toEqual([]);
  });
});
