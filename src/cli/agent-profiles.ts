import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { z } from 'zod';
import { lazySchema } from '../core/lazy';
import { ConfigError, generationSchema, promptSchema, userConfigPath } from './config';
import { ownStateDirs } from './tole-home';
import { fingerprint, type FolderFingerprint } from './trust-store';
import { readRegularFile } from '../core/regular-file';

/** An agent profile: one JSON file, `agents/NAME.json`. Each field left out keeps the config's. */
/** Built on first use: when a profile file is read. */
const profileSchema = lazySchema((z) =>
  z.strictObject({
    $schema: z.string().optional(),
    description: z.string().optional(),
    systemPrompt: promptSchema().optional(),
    prompt: promptSchema().optional(),
    provider: z.string().min(1).optional(),
    model: z.string().min(1).optional(),
    /** The tools the model is offered, by name: a subset of tole's (MCP tools as `server__tool`). */
    tools: z.array(z.string().min(1)).optional(),
    maxSteps: z.number().int().min(1).max(1000).optional(),
    compactionModel: z.string().min(1).optional(),
    generation: generationSchema().optional(),
  }),
);

export type AgentProfile = z.infer<ReturnType<typeof profileSchema>>;

export interface ProfileFile {
  readonly name: string;
  readonly file: string;
  readonly from: 'user' | 'project';
}

export interface ProfilePlaces {
  /** `agents/` in tole's config dir. */
  readonly userDir: string;
  /** `.tole/agents/` in the workspace; null while the project is not trusted. */
  readonly projectDir: string | null;
  /**
   * Whether the workspace still holds what was trusted when tole started: a profile the model
   * wrote or changed since (in this run) is not read until the user trusts the folder again.
   */
  readonly stillTrusted?: () => boolean;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** `trusted`: the fingerprint the folder was trusted with at start; null when trust needs none (`--config FILE`). */
export function profilePlaces(
  env: NodeJS.ProcessEnv,
  workspaceRoot: string,
  projectTrusted: boolean,
  trusted: FolderFingerprint | null = null,
): ProfilePlaces {
  return {
    userDir: join(dirname(userConfigPath(env)), 'agents'),
    projectDir: projectTrusted ? join(workspaceRoot, '.tole', 'agents') : null,
    stillTrusted: () => trusted === null || currentFingerprint(workspaceRoot, env).sha256 === trusted.sha256,
  };
}

function currentFingerprint(workspaceRoot: string, env: NodeJS.ProcessEnv): FolderFingerprint {
  let bytes: Buffer;
  try {
    bytes = readRegularFile(join(workspaceRoot, 'tole.config.json'));
  } catch {
    bytes = Buffer.alloc(0);
  }
  return fingerprint(workspaceRoot, bytes, ownStateDirs(env));
}

/** Every profile, by name; a project's profile goes over the user's of the same name. */
export function listProfiles(places: ProfilePlaces): ProfileFile[] {
  const byName = new Map<string, ProfileFile>();
  for (const profile of profilesIn(places.userDir, 'user')) byName.set(profile.name, profile);
  if (places.projectDir !== null && places.stillTrusted?.() !== false)
    for (const profile of profilesIn(places.projectDir, 'project')) byName.set(profile.name, profile);
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * The profiles in one folder. The project's are trusted by the hash of `.tole` as it is, links by
 * their text: what a link there points at is not what was trusted, so none is followed.
 */
export function profilesIn(dir: string, from: ProfileFile['from']): ProfileFile[] {
  const real = from === 'user' ? () => true : (path: string, kind: 'dir' | 'file') => isReal(path, kind);
  if (!real(dirname(dir), 'dir') || !real(dir, 'dir')) return [];
  const out: ProfileFile[] = [];
  for (const entry of safeList(dir)) {
    const name = entry.replace(/\.json$/, '');
    if (entry.endsWith('.json') && NAME.test(name) && real(join(dir, entry), 'file'))
      out.push({ name, file: join(dir, entry), from });
  }
  return out;
}

/** Reads and checks one profile; a missing or bad one is an error naming the file and the field. */
export function loadProfile(
  name: string,
  places: ProfilePlaces,
  knownTools: readonly string[],
): { profile: AgentProfile; file: ProfileFile } {
  const found = NAME.test(name) ? listProfiles(places).find((p) => p.name === name) : undefined;
  if (!found) {
    const known = listProfiles(places).map((p) => p.name);
    throw new ConfigError(
      join(places.userDir, `${name}.json`),
      `no agent profile "${name}"${known.length > 0 ? ` (known: ${known.join(', ')})` : ''}: put one in ${join(places.userDir, `${name}.json`)}${places.projectDir ? ` or ${join(places.projectDir, `${name}.json`)}` : ''}`,
    );
  }
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(found.file, 'utf8'));
  } catch (error) {
    throw new ConfigError(found.file, `agent profile ${found.file}: not valid JSON: ${(error as Error).message}`);
  }
  const parsed = profileSchema().safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field =
      issue.code === 'unrecognized_keys'
        ? [...issue.path, issue.keys[0]!].join('.')
        : issue.path.join('.') || '(top level)';
    const message =
      issue.code === 'unrecognized_keys'
        ? `is not a profile field (known: ${Object.keys(profileSchema().shape).join(', ')})`
        : issue.message;
    throw new ConfigError(found.file, `agent profile ${found.file}: field "${field}": ${message}`);
  }
  // An MCP tool (`server__tool`) is only known once its server has started: it is taken on trust.
  const unknown = (parsed.data.tools ?? []).filter((tool) => !knownTools.includes(tool) && !tool.includes('__'));
  if (unknown.length > 0) {
    throw new ConfigError(
      found.file,
      `agent profile ${found.file}: field "tools": unknown tool ${unknown.map((t) => `"${t}"`).join(', ')} (tole's tools: ${knownTools.join(', ')})`,
    );
  }
  return { profile: parsed.data, file: found };
}

/** True when `path` is a directory or a regular file as asked, itself and not through a link. */
function isReal(path: string, kind: 'dir' | 'file'): boolean {
  try {
    const stats = lstatSync(path);
    return kind === 'dir' ? stats.isDirectory() : stats.isFile();
  } catch {
    return false;
  }
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
