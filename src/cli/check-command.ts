import { resolve } from 'node:path';
import { UsageError, type CliArgs } from './args';

/** `tole check PATH`: verify a session file without changing it. */
export async function runCheck(args: CliArgs, io: { cwd: string; stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream }): Promise<number> {
  const target = args.positional[0];
  if (!target) throw new UsageError('tole check needs a session file: tole check PATH');
  const { checkSessionFile, formatCheckReport } = await import('../core/storage/check');
  const report = checkSessionFile(resolve(io.cwd, target));
  io.stdout.write(`${formatCheckReport(report)}\n`);
  return report.ok ? 0 : 1;
}
