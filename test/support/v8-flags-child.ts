/**
 * A child for screen-v8-flags-take-effect.test.ts. Usage: v8-flags-child MODE FLAGS FILE, FLAGS
 * `screen` sets the screen's V8 flags first (`none` does not); MODE `write` caches a small script's
 * code into FILE, `read` prints whether V8 takes that cache (`taken`/`refused`), `gc` asks for a
 * young-generation collection and prints whether it was offered and the kinds of collections seen
 * once the minor one is among them (at once when none was offered),
 * `tenure` (run with node's `--allow-natives-syntax --expose-gc`) makes objects at one allocation
 * site that all live on through young-generation collections, then prints whether that site's
 * next object and its array are still made in the young generation (`{"young":[bool,bool]}`).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';
import { Script } from 'node:vm';
import { collectYoung, setScreenV8Flags } from '../../src/cli/v8-flags';

const [mode, flags, file] = process.argv.slice(2) as [string, string, string];
if (flags === 'screen') setScreenV8Flags();
const source = 'function add(a, b) { return a + b; } add(1, 2);';
if (mode === 'tenure') {
  // V8's own test function, offered by --allow-natives-syntax; `%` is not TypeScript, so it is compiled here.
  const inYoung = new Function('value', 'return %InYoungGeneration(value)') as (value: object) => boolean;
  const collect = (globalThis as unknown as { gc: (options: { type: 'minor' }) => void }).gc;
  const make = (i: number) => ({ i, tag: 'kept', list: [i] });
  const kept: object[] = [];
  for (let round = 0; round < 20; round++) {
    for (let i = 0; i < 20_000; i++) kept.push(make(i));
    collect({ type: 'minor' });
  }
  const next = make(kept.length);
  process.stdout.write(JSON.stringify({ young: [inYoung(next), inYoung(next.list)] }));
} else if (mode === 'gc') {
  const kinds: number[] = [];
  // Kept alive until the report: the observer's entries come later, and hold no process open.
  const alive = setInterval(() => {}, 60_000);
  const report = (): void => {
    clearInterval(alive);
    observer.disconnect();
    process.stdout.write(JSON.stringify({ offered, kinds }));
  };
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) kinds.push((entry as { detail?: { kind?: number } }).detail?.kind ?? -1);
    // 1 is a minor (young-generation) collection: the one asked for has been seen.
    if (kinds.includes(1)) report();
  });
  observer.observe({ entryTypes: ['gc'] });
  const offered = collectYoung();
  // Not offered, nothing was asked for, and nothing is waited for; offered, the report waits for
  // the collection's entry (a child that never sees it is ended by the test's time limit).
  if (!offered) report();
} else if (mode === 'write') {
  const script = new Script(source);
  script.runInThisContext();
  writeFileSync(file, script.createCachedData());
} else {
  const script = new Script(source, { cachedData: readFileSync(file) });
  process.stdout.write(script.cachedDataRejected ? 'refused' : 'taken');
}
