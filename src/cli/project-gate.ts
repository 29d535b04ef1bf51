import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readConfigFile, readProjectConfigFile, userConfigPath, type Config } from './config';
import type { FolderFingerprint } from './trust-store';

/** Config fields whose array form runs shell commands when a session starts. */
export const PROMPT_COMMAND_FIELDS = ['systemPrompt', 'prompt'] as const;

export interface GatedConfig {
  readonly config: Config;
  /** True when what the project holds may run: its prompt commands and `.tole/agents` profiles. */
  readonly projectTrusted: boolean;
  /** What the folder was trusted with at start (its config and `.tole`); null when none was needed. */
  readonly trustedPrint?: FolderFingerprint | null;
  readonly notices: readonly string[];
}

/**
 * Keeps what is in the project folder from running anything: prompt commands set by the
 * project's `tole.config.json` are dropped (the user config's value stands), and its
 * `.tole/agents` profiles are not loaded, each with a notice, until the user trusts the folder.
 * The user's own config and a `--config FILE` the user named are trusted.
 */
export function gateProjectConfig(
  config: Config,
  files: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  explicit: string | undefined,
  trusted = false,
  trustedPrint: FolderFingerprint | null = null,
): GatedConfig {
  // A folder the user trusted (`tole trust`, `--trust`; see loadConfig) runs what it holds.
  if (trusted) return { config, projectTrusted: true, trustedPrint, notices: [] };
  const notices: string[] = [];
  let gated = config;
  const projectFile = join(cwd, 'tole.config.json');
  if (explicit === undefined && files.includes(projectFile)) {
    const project = readProjectConfigFile(projectFile).config;
    const user = existsSync(userConfigPath(env)) ? readConfigFile(userConfigPath(env)) : {};
    for (const field of PROMPT_COMMAND_FIELDS) {
      if (!Array.isArray(project[field])) continue;
      const { [field]: _dropped, ...rest } = gated;
      gated = user[field] === undefined ? rest : { ...rest, [field]: user[field] };
      notices.push(`${projectFile}: field "${field}" runs commands, and this project's config is not trusted: ignored`);
    }
  }
  const projectAgents = join(cwd, '.tole', 'agents');
  if (hasJson(projectAgents))
    notices.push(`${projectAgents}: agent profiles in the project are not loaded, as the project is not trusted`);
  return { config: gated, projectTrusted: false, trustedPrint: null, notices };
}

function hasJson(dir: string): boolean {
  try {
    return readdirSync(dir).some((name) => name.endsWith('.json'));
  } catch {
    return false;
  }
}
