/**
 * Runs `tole -p` from its own CommonJS script (dist/headless.cjs), compiled with tole's code cache
 * as the full-screen session's is (screen-loader): Node 20 caches no compiled ES modules, and a
 * one-turn run spent about as much CPU compiling its chunks as on everything else.
 */
import { fileURLToPath } from 'node:url';
import packageJson from '../../package.json';
import type { Sandbox } from '../core/tools/sandbox';
import type { CliArgs } from './args';
import { codeCacheDir } from './code-cache';
import type { MainIo } from './main-io';
import { loadScript } from './screen-loader';

/** What dist/headless.cjs exports (src/cli/headless-entry.ts). */
interface HeadlessScript {
  runHeadlessScript(args: CliArgs, io: MainIo, sandbox: Promise<Sandbox | null>): Promise<number>;
}

/**
 * The turn, from dist/headless.cjs. When V8 compiled the script from source, the code compiled by
 * the end of the turn (every function the turn ran) is written as the cache once the turn has
 * ended and said all it says, and only after a turn that ended well: a cache made by a run that
 * stopped early (no key, a refused request) would hold little of a turn's code, and, being good,
 * would never be replaced. Writing it takes place after the last output, and what it meets (no
 * cache folder, one not the user's, a full disk) is no error: the exit code stays the turn's.
 */
export async function runHeadlessBundle(
  url: URL,
  args: CliArgs,
  io: MainIo,
  sandbox: Promise<Sandbox | null>,
): Promise<number> {
  const loaded = loadScript(fileURLToPath(url), codeCacheDir(io.env), packageJson.version);
  const code = await (loaded.exports as HeadlessScript).runHeadlessScript(args, io, sandbox);
  if (code === 0 && !loaded.fromCache) loaded.saveCache();
  return code;
}
