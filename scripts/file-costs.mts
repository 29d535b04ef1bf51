/**
 * `npm run test:costs -- LOG...`: writes test/support/file-costs.json, the measured cost of each test
 * file that the suite's sequencer reads (test/support/file-costs.ts), from one or more logs of a whole
 * run made with TOLE_FILE_CPU_LOG=LOG (test/support/file-cpu-log.ts). A file the logs lack keeps its
 * earlier figure; a file that is gone leaves the table.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { costsFromLogs, FILE_COSTS_TABLE, readFileCosts } from '../test/support/file-costs';
import { REPO_ROOT } from '../test/support/repo-root';

const logs = process.argv.slice(2);
if (logs.length === 0) {
  console.error('usage: npm run test:costs -- LOG... (logs of `TOLE_FILE_CPU_LOG=LOG npx vitest run`)');
  process.exit(2);
}
const earlier = readFileCosts(REPO_ROOT);
const costs = costsFromLogs(
  logs.map((log) => readFileSync(log, 'utf8')),
  earlier,
  (relative) => existsSync(join(REPO_ROOT, relative)),
);
writeFileSync(join(REPO_ROOT, FILE_COSTS_TABLE), `${JSON.stringify(costs, null, 2)}\n`);
const measured = Object.keys(costs).length;
const total = Object.values(costs).reduce((a, b) => a + b, 0);
console.log(`${FILE_COSTS_TABLE}: ${measured} files, ${Math.round(total)} s in all`);
