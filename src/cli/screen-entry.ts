/**
 * The entry of dist/screen.cjs: the full-screen session as one CommonJS script, which
 * `screen-loader` compiles with tole's code cache. Its failures are told here, by its own error
 * classes (the script holds its own copy of every module it uses).
 */
import type { Sandbox } from '../core/tools/sandbox';
import type { CliArgs } from './args';
import type { MainIo } from './main-io';
import { reportError } from './report-error';
import { startTui } from './tui-command';

export async function runScreen(
  args: CliArgs,
  io: MainIo,
  sandbox: Promise<Sandbox | null>,
  onFirstFrame?: () => void,
): Promise<number> {
  try {
    return await startTui(args, io, sandbox, onFirstFrame);
  } catch (error) {
    return await reportError(error, io);
  }
}
