import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { CliArgs } from './args';
import { ConfigError, loadConfig, trustFolder } from './config';
import { fingerprint } from './trust-store';
import type { MainIo } from './main';
import { clock } from './wiring';

/**
 * `tole trust [DIR]`: trusts the folder's project config as it is now (an edit later untrusts it
 * again), after printing what it will let the config do.
 */
export function runTrust(args: CliArgs, io: MainIo): number {
  const dir = resolve(io.cwd, args.positional[0] ?? '.');
  if (!existsSync(dir)) throw new ConfigError(dir, `tole trust: ${dir} is not there`);
  const { project } = loadConfig(dir, io.env);
  const nowIso = new Date(clock.nowMs()).toISOString();
  if (!project) {
    trustFolder(io.env, fingerprint(dir, Buffer.alloc(0)), nowIso);
    io.stdout.write(`tole: trusted ${dir} (it has no tole.config.json; if one appears, tole asks again)\n`);
    return 0;
  }
  trustFolder(io.env, project.fingerprint, nowIso);
  const gated = project.ignored.length > 0 ? ` (now applied: ${project.ignored.join(', ')})` : '';
  io.stdout.write(`tole: trusted ${project.file} as it is now${gated}; if it changes, tole asks again\n`);
  return 0;
}
