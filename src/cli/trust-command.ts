import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { CliArgs } from './args';
import { ConfigError, loadConfig, trustFolder } from './config';
import { fingerprint, type FolderFingerprint } from './trust-store';
import { ownStateDirs } from './tole-home';
import type { MainIo } from './main-io';
import { clock } from './wiring';
import { trustSummary } from './trust-summary';

/**
 * `tole trust [DIR]`: trusts the folder's project config and `.tole/` as they are now (an edit
 * later untrusts it again), after printing what it will let them do.
 */
export function runTrust(args: CliArgs, io: MainIo): number {
  const dir = resolve(io.cwd, args.positional[0] ?? '.');
  if (!existsSync(dir)) throw new ConfigError(dir, `tole trust: ${dir} is not there`);
  const { project, projectMcp } = loadConfig(dir, io.env);
  const nowIso = new Date(clock.nowMs()).toISOString();
  const print = project?.fingerprint ?? fingerprint(dir, Buffer.alloc(0), ownStateDirs(io.env));
  refuseIfTooLarge(dir, print);
  trustFolder(io.env, print, nowIso);
  const { commands } = trustSummary({ folder: print.folder, project, mcp: projectMcp, fingerprint: print });
  if (commands.length > 0)
    io.stdout.write(
      `tole: these commands may now run, as you:\n${commands.map(([by, command]) => `  ${by}: ${command}\n`).join('')}`,
    );
  if (!project) {
    io.stdout.write(
      `tole: trusted ${dir} (it has no tole.config.json; if one appears, or .tole changes, tole asks again)\n`,
    );
    return 0;
  }
  const gated = project.ignored.length > 0 ? ` (now applied: ${project.ignored.join(', ')})` : '';
  io.stdout.write(
    `tole: trusted ${project.file} and ${dir}/.tole as they are now${gated}; if either changes, tole asks again\n`,
  );
  return 0;
}

function refuseIfTooLarge(dir: string, print: FolderFingerprint): void {
  if (print.refused !== undefined)
    throw new ConfigError(
      dir,
      `tole trust: ${print.refused}, too much to trust as a whole; keep only agent profiles and prompts there`,
    );
}
