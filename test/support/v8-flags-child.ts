/**
 * A child for screen-v8-flags-take-effect.test.ts. Usage: v8-flags-child MODE FLAGS FILE, FLAGS
 * `screen` sets the screen's V8 flags first (`none` does not); MODE `write` caches a small script's
 * code into FILE, `read` prints whether V8 takes that cache (`taken`/`refused`), `gc` asks for a
 * young-generation collection and prints whether it was offered and the kinds of collections seen.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';
import { Script } from 'node:vm';
import { collectYoung, setScreenV8Flags } from '../../src/cli/v8-flags';

const [mode, flags, file] = process.argv.slice(2) as [string, string, string];
if (flags === 'screen') setScreenV8Flags();
const source = 'function add(a, b) { return a + b; } add(1, 2);';
if (mode === 'gc') {
  const kinds: number[] = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) kinds.push((entry as { detail?: { kind?: number } }).detail?.kind ?? -1);
  }).observe({ entryTypes: ['gc'] });
  const offered = collectYoung();
  setTimeout(() => process.stdout.write(JSON.stringify({ offered, kinds })), 50);
} else if (mode === 'write') {
  const script = new Script(source);
  script.runInThisContext();
  writeFileSync(file, script.createCachedData());
} else {
  const script = new Script(source, { cachedData: readFileSync(file) });
  process.stdout.write(script.cachedDataRejected ? 'refused' : 'taken');
}
