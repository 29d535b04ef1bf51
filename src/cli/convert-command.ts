import { resolve } from 'node:path';
import { backendOfPath, isStorageBackend } from '../core/storage/backends';
import { UsageError, type CliArgs } from './args';
import { clock, systemRandom } from './wiring';

/** `tole convert PATH --to sqlite|jsonl`: writes the session in the other format next to it. */
export async function runConvert(
  args: CliArgs,
  io: { cwd: string; stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream },
): Promise<number> {
  const target = args.positional[0];
  if (!target || args.to === undefined)
    throw new UsageError('tole convert needs a session file and a format: tole convert PATH --to sqlite|jsonl');
  if (!isStorageBackend(args.to)) throw new UsageError(`--to must be sqlite or jsonl, not "${args.to}"`);
  const path = resolve(io.cwd, target);
  if (!path.endsWith('.jsonl') && !path.endsWith('.db'))
    throw new UsageError(`${path} is not a session file (.jsonl or .db)`);
  if (backendOfPath(path) === args.to) throw new UsageError(`${path} is already a ${args.to} session`);
  const { convertSession } = await import('../core/storage/convert');
  const result = convertSession(path, args.to, { clock, random: systemRandom() });
  if (result.tornTail)
    io.stderr.write(
      `tole: left out a torn tail of ${result.tornTail.bytes} bytes at line ${result.tornTail.line} (${result.tornTail.reason}); the source is unchanged\n`,
    );
  io.stdout.write(
    `${result.to}\n  ${result.entries} entries, ${result.registers} register cells, ${result.usageRows} usage rows, last seq ${result.lastSeq}; ${result.from} is unchanged\n`,
  );
  return 0;
}
