/**
 * A session's cost is written by one formatter (core/usage/cost-text): `tole sessions`, the
 * session picker and the usage pane's session row read the same for the same sum. `tole sessions`
 * once wrote $0.041 as $0.04 while the screen wrote $0.041.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseArgs } from '../../src/cli/args';
import { runSessions, sessionsForListing } from '../../src/cli/sessions-command';
import { emptyTotals } from '../../src/core/usage/totals';
import { pickerRow } from '../../src/tui/picker/picker-rows';
import type { Line } from '../../src/tui/style/styled-line';
import { usageLines } from '../../src/tui/usage/usage-lines';
import type { UsageSummary } from '../../src/tui/usage/usage-summary';
import { callUsage, sessionWithUsage } from '../support/usage-sessions';
import { tempDirForTest } from '../support/after-the-test';

const lineText = (line: Line): string => line.map((segment) => segment.text).join('');
const lastWord = (text: string): string => text.trim().split(/\s+/).at(-1) ?? '';

/** The usage pane's session row for a session that cost `costUsdMicros`: its last column is the cost. */
function usagePaneCost(costUsdMicros: number, unpriced: boolean): string {
  const session = { ...emptyTotals(), attempts: 1, costUsdMicros, unpriced };
  const summary: UsageSummary = {
    turn: emptyTotals(),
    branch: emptyTotals(),
    session,
    perModel: [],
    retries: { retried: new Map(), failed: new Map(), waitedMs: 0, lastError: null },
    lastRequestTokens: null,
    cachedPrefixTokens: 0,
    children: [],
  };
  const live = { activity: null, estimate: null, fill: null, elapsedMs: 0, retry: null };
  const sessionRow = usageLines(summary, live, 40)
    .map(lineText)
    .find((text) => text.startsWith('session'));
  return lastWord(sessionRow ?? '');
}

describe('a cost', () => {
  it('reads the same in tole sessions, the picker and the usage pane', () => {
    const home = tempDirForTest('tole-cost-text-');
    const dir = join(home, 'sessions');
    mkdirSync(dir);
    // Each range of the formatter: under a hundredth of a cent, under a cent, under a dollar, dollars, thousands.
    const cases: [micros: number, priced: boolean, expected: string][] = [
      [41_000, true, '$0.041'],
      [20_000, true, '$0.020'],
      [5_600, true, '$0.0056'],
      [40, true, '<$0.0001'],
      [1_234_567, true, '$1.23'],
      [2_345_678_901, true, '$2346'],
      [0, false, '$0+?'],
      [410_000, false, '$0.410+?'],
    ];
    cases.forEach(([micros, priced], i) =>
      sessionWithUsage(dir, home, i + 1, `prompt ${i}`, callUsage('some-model', micros, priced)),
    );
    let out = '';
    const code = runSessions(parseArgs(['sessions']), {
      cwd: home,
      env: { HOME: home, TOLE_HOME: home, PATH: '/usr/bin:/bin' },
      stdout: { write: (chunk: string) => ((out += chunk), true) } as unknown as NodeJS.WritableStream,
    });
    expect(code).toBe(0);
    const listed = sessionsForListing(dir, home, false);
    cases.forEach(([micros, priced, expected], i) => {
      const prompt = `prompt ${i}`;
      const cliLine = out.split('\n').find((l) => l.includes(prompt)) ?? '';
      expect(cliLine.split(/\s+/)).toContain(expected);
      const summary = listed.find((s) => s.firstPrompt === prompt)!;
      expect(lastWord(lineText(pickerRow(summary, false, 100, false, 0, home)))).toBe(expected);
      expect(usagePaneCost(micros, !priced)).toBe(expected);
    });
  });
});
