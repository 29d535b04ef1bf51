/**
 * The entry of dist/headless.cjs: `tole -p` as one CommonJS script, which `headless-loader`
 * compiles with tole's code cache. Its failures are told here, by its own error classes (the
 * script holds its own copy of every module it uses).
 */
import type { Sandbox } from '../core/tools/sandbox';
import type { CliArgs } from './args';
import { runHeadlessCommand } from './headless-command';
import type { MainIo } from './main-io';
import { reportError } from './report-error';

export async function runHeadlessScript(args: CliArgs, io: MainIo, sandbox: Promise<Sandbox | null>): Promise<number> {
  try {
    return await runHeadlessCommand(args, io, sandbox);
  } catch (error) {
    return await reportError(error, io);
  }
}
