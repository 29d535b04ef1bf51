import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { z } from 'zod';
import { lazySchema } from '../core/lazy';
import { zodNow } from '../core/zod-on-use';
import { REASONING_EFFORTS } from '../core/provider/provider';
import { API_KINDS, type ApiKind as ApiKindName } from '../core/provider/registry';
import { defaultRetryPolicy } from '../core/provider/retry';
import { DEFAULT_LIMITS } from '../core/session/limits';
import { DEFAULT_SUB_AGENT_LIMITS } from '../core/session/sub-agent-limits';
import { KeymapError, overrideChords } from '../tui/input/keymap-overrides';
import { ownStateDirs } from './tole-home';
import { fingerprint, TrustStore, trustStorePath, type FolderFingerprint } from './trust-store';
import { readRegularFile } from '../core/regular-file';

/**
 * The config file's schemas, built on first use: when a config file (or an agent profile, which
 * shares the generation and prompt fields) is read. A session with no such file builds none.
 */
const schemas = lazySchema((z) => {
  const hookCommands = z.union([z.string().min(1), z.array(z.string().min(1))]);

  /** An http(s) URL: `localhost:11434` would otherwise pass as a URL of scheme `localhost:`. */
  const httpUrl = z.url({ protocol: /^https?$/ });

  const providerSchema = z.strictObject({
    /** The API the server speaks (provider/registry.ts); `openai-chat` unless given. */
    api: z.enum(API_KINDS as [ApiKindName, ...ApiKindName[]]).optional(),
    baseUrl: httpUrl,
    apiKeyEnv: z.string().min(1).optional(),
    model: z.string().min(1).optional(),
    headers: z.record(z.string(), z.string()).optional(),
    contextWindow: z.number().int().positive().optional(),
    /** Send this provider's key even over plain http to a host that is not this machine. */
    keyOverHttp: z.boolean().optional(),
  });

  /** Sampling settings, per config and per agent profile; they go out with every model call. */
  const generationSchema = z.strictObject({
    temperature: z.number().min(0).max(2).optional(),
    topP: z.number().gt(0).max(1).optional(),
    maxOutputTokens: z.number().int().min(1).max(1_000_000).optional(),
    reasoningEffort: z.enum(REASONING_EFFORTS).optional(),
    /** Anthropic's extended thinking: tokens the model may think before it answers (at least 1024). */
    thinkingBudgetTokens: z.number().int().min(1024).max(1_000_000).optional(),
    seed: z.number().int().optional(),
    stop: z
      .union([z.string().min(1), z.array(z.string().min(1)).min(1).max(4)])
      .transform((stop) => (typeof stop === 'string' ? [stop] : stop))
      .optional(),
  });

  /** A prompt: text as it is, or shell commands (trusted config only) whose output is joined. */
  const promptSchema = z.union([z.string(), z.array(z.string().min(1)).min(1)]);

  const priceSchema = z.strictObject({
    inputUsdPerMTok: z.number().nonnegative(),
    outputUsdPerMTok: z.number().nonnegative(),
    cachedInputUsdPerMTok: z.number().nonnegative().optional(),
    cacheWriteUsdPerMTok: z.number().nonnegative().optional(),
  });

  const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'expected the name of an environment variable');
  const riskName = z.enum(['ReadOnly', 'Write', 'Destructive']);

  const mcpToolSchema = z.strictObject({
    risk: riskName.optional(),
    replay: z.enum(['idempotent', 'never']).optional(),
    trustAnnotations: z.boolean().optional(),
    disabled: z.boolean().optional(),
  });

  const STDIO_ONLY = ['args', 'env', 'passEnv', 'cwd'] as const;
  const HTTP_ONLY = ['headers', 'headersFromEnv'] as const;

  /** One MCP server: stdio (`command`) or Streamable HTTP (`url`), never both. */
  const mcpServerSchema = z
    .strictObject({
      command: z.string().min(1).optional(),
      args: z.array(z.string()).optional(),
      env: z.record(envName, z.string()).optional(),
      passEnv: z.array(envName).optional(),
      cwd: z.string().min(1).optional(),
      url: httpUrl.optional(),
      headers: z.record(z.string().min(1), z.string()).optional(),
      headersFromEnv: z.record(z.string().min(1), envName).optional(),
      start: z.enum(['session', 'lazy']).optional(),
      startupTimeoutMs: z.number().int().min(100).max(600_000).optional(),
      callTimeoutMs: z.number().int().min(100).max(3_600_000).optional(),
      trustAnnotations: z.boolean().optional(),
      tools: z.record(z.string().min(1), mcpToolSchema).optional(),
      disabled: z.boolean().optional(),
    })
    .superRefine((server, ctx) => {
      if ((server.command === undefined) === (server.url === undefined)) {
        ctx.addIssue({
          code: 'custom',
          message:
            'give either "command" (a server tole starts, over stdio) or "url" (a Streamable HTTP server), not both',
        });
        return;
      }
      const [kind, other] =
        server.command !== undefined ? (['command', HTTP_ONLY] as const) : (['url', STDIO_ONLY] as const);
      for (const field of other) {
        if (server[field] !== undefined)
          ctx.addIssue({ code: 'custom', path: [field], message: `not a field of a server with "${kind}"` });
      }
    });

  const configSchema = z.strictObject({
    $schema: z.string().optional(),
    provider: z.string().min(1).optional(),
    providers: z.record(z.string(), providerSchema).optional(),
    model: z.string().min(1).optional(),
    baseUrl: httpUrl.optional(),
    /** Send the key to `baseUrl` even over plain http to a host that is not this machine. */
    keyOverHttp: z.boolean().optional(),
    pricing: z.record(z.string(), priceSchema).optional(),
    allow: z.array(z.string().min(1)).optional(),
    theme: z.string().min(1).optional(),
    /** The mouse wheel scrolls the pane under the pointer (mouse reporting on); false leaves the mouse to the terminal. */
    mouse: z.boolean().optional(),
    /** Draw runs of one character (the panes' rules) with REP where the terminal says it repeats, and box-drawing runs in the DEC graphics set inside tmux; false does neither. */
    repeatRuns: z.boolean().optional(),
    /** A bell (and OSC 9 where the terminal shows it) when an approval waits or a turn of `afterTurnMs` or more ends while the terminal is unfocused. */
    notify: z
      .strictObject({
        bell: z.boolean().optional(),
        osc9: z.boolean().optional(),
        afterTurnMs: z.number().int().nonnegative().optional(),
      })
      .optional(),
    keymap: z
      .record(z.string(), z.union([z.string(), z.array(z.string())]))
      .superRefine((map, ctx) => {
        // Actions and chords as the screen knows them: a typo is named here, not ignored at run time.
        for (const [action, value] of Object.entries(map)) {
          try {
            overrideChords(action, value);
          } catch (error) {
            if (!(error instanceof KeymapError)) throw error;
            ctx.addIssue({ code: 'custom', path: [action], message: error.message });
          }
        }
      })
      .optional(),
    limits: z
      .strictObject({
        maxSteps: z.number().int().min(1).max(1000).optional(),
        nudgeAfterFailingRounds: z.number().int().min(1).optional(),
        abortAfterFailingRounds: z.number().int().min(1).optional(),
        stallRounds: z.number().int().min(1).optional(),
        /** Tool rounds without a plan update before the model is asked for one. */
        replanAfterRounds: z.number().int().min(1).optional(),
        /** Every this many tool rounds the task state is sent again with the request. */
        reinjectPlanEveryRounds: z.number().int().min(1).optional(),
        maxAttempts: z.number().int().min(1).max(20).optional(),
        toolOutputCapBytes: z
          .number()
          .int()
          .min(1024)
          .max(1024 * 1024)
          .optional(),
        /** How many ReadOnly calls of one model reply run at once (1: one at a time). */
        readConcurrency: z.number().int().min(1).max(32).optional(),
        /** Silence allowed inside a model's stream once output has started (ms). */
        streamIdleTimeoutMs: z.number().int().min(1000).max(3_600_000).optional(),
        /** Silence allowed between the stream opening and its first output (ms): a long prompt takes a while. */
        firstTokenTimeoutMs: z.number().int().min(1000).max(3_600_000).optional(),
        /** How long one model call may take in all: every attempt and every wait between them (ms). */
        modelCallTimeoutMs: z.number().int().min(1000).max(86_400_000).optional(),
        /** How many sub-agents (`task` calls of one reply) run at once. */
        maxParallelTasks: z.number().int().min(1).max(16).optional(),
        /** How deep sub-agents nest: 1, a session's children start none of their own. */
        maxTaskDepth: z.number().int().min(1).max(3).optional(),
        /** Model calls a sub-agent's turn may make, unless its profile sets maxSteps. */
        childMaxSteps: z.number().int().min(1).max(1000).optional(),
        /** The session's budget in US dollars, its sub-agents' cost included: reached, no further model call is made. */
        maxSessionCostUsd: z.number().positive().optional(),
      })
      .optional(),
    compaction: z
      .strictObject({
        threshold: z.number().gt(0).lt(1).optional(),
        model: z.string().min(1).optional(),
        contextWindow: z.number().int().positive().optional(),
      })
      .optional(),
    hooks: z
      .strictObject({
        timeoutMs: z.number().int().min(100).max(600_000).optional(),
        sessionStart: hookCommands.optional(),
        userPrompt: hookCommands.optional(),
        preToolUse: hookCommands.optional(),
        postToolUse: hookCommands.optional(),
        turnError: hookCommands.optional(),
        preCompact: hookCommands.optional(),
      })
      .optional(),
    sessionsDir: z.string().min(1).optional(),
    sync: z
      .strictObject({
        /** postgres://USER@HOST:PORT/DATABASE; the password goes in PGPASSWORD or ~/.pgpass. */
        url: z.url({ protocol: /^postgres(ql)?$/ }),
        /** Who the sessions are from in the cost views; the login name when not set. */
        person: z.string().min(1).optional(),
        /** How long the full-screen tole waits after a commit before it ships (ms). */
        intervalMs: z.number().int().min(200).max(600_000).optional(),
        /** How long a headless run waits for its sync after the turn (ms). */
        timeoutMs: z.number().int().min(1000).max(600_000).optional(),
        /** Records per transaction when shipping (whole commits). */
        batchRecords: z.number().int().min(1).max(100_000).optional(),
        /** false: keep the URL for --from but do not ship in the background. */
        background: z.boolean().optional(),
      })
      .optional(),
    mcpServers: z
      .record(
        z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, 'a server name is 1 to 40 letters, digits, _ or -'),
        mcpServerSchema,
      )
      .optional(),
    checkpoints: z
      .strictObject({
        /** false: no checkpoints are taken (and restore is off). */
        enabled: z.boolean().optional(),
        /** Files larger than this are left out of checkpoints (default 10 MB). */
        maxFileMB: z.number().positive().max(4096).optional(),
        /**
         * How long one checkpoint's gits may run before they are killed and the checkpoint fails
         * (default 300). At least a second: a smaller limit fails every checkpoint at once.
         */
        timeLimitSeconds: z.number().min(1).max(86_400).optional(),
        /**
         * true: a scan asks a running watchman which paths changed and git looks only at those
         * (change-journal.ts). Off by default: on a warm cache it measured slower (bench/RESULTS.md).
         */
        watchman: z.boolean().optional(),
      })
      .optional(),
    systemPrompt: promptSchema.optional(),
    prompt: promptSchema.optional(),
    generation: generationSchema.optional(),
    /** The agent profile a new session starts with. */
    agent: z.string().min(1).optional(),
    /** Variables the model's commands and hooks may see although their names look secret (KEY, TOKEN, ...). */
    passEnv: z
      .array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'expected a variable name such as GITHUB_TOKEN'))
      .optional(),
    sandbox: z
      .strictObject({
        /** Let sandboxed shell commands reach the network (default: no network). */
        network: z.boolean().optional(),
        /**
         * Paths in the home confined commands may read (`~/.gitconfig`): the home is otherwise out of
         * their sight but for the workspace and the toolchains tole vouches for. The user's own config
         * alone sets it: a project's is ignored, trusted or not.
         */
        readable: z
          .array(z.string().regex(/^(~(\/|$)|\/)/, 'expected an absolute path or one starting with ~/'))
          .optional(),
      })
      .optional(),
    /**
     * Keys of a repository's git config that tole does not know and the user vouches name no
     * program (`gitflow.path.hooks`, or a prefix such as `gitflow.*`): commands run outside the
     * sandbox while they are set. A key tole knows names a program is made inert whatever this says.
     */
    trustedGitKeys: z
      .array(
        z
          .string()
          .regex(
            /^[A-Za-z0-9-]+(\.[^\n]+)?\.(\*|[A-Za-z][A-Za-z0-9-]*)$/,
            'expected a git config key such as gitflow.path.hooks, or a prefix such as gitflow.*',
          ),
      )
      .max(200)
      .optional(),
  });
  return { configSchema, generationSchema, promptSchema, mcpServerSchema };
});

const configSchema = (): Schemas['configSchema'] => schemas().configSchema;
export const generationSchema = (): Schemas['generationSchema'] => schemas().generationSchema;
export const promptSchema = (): Schemas['promptSchema'] => schemas().promptSchema;

type Schemas = ReturnType<typeof schemas>;
export type McpServerConfig = z.infer<Schemas['mcpServerSchema']>;

export type Config = z.infer<Schemas['configSchema']>;

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(message);
  }
}

export function userConfigPath(env: NodeJS.ProcessEnv): string {
  const base = env['XDG_CONFIG_HOME'] || join(env['HOME'] || homedir(), '.config');
  return join(base, 'tole', 'config.json');
}

/** Reads and validates one config file; a bad one is an error naming the file and the field. */
export function readConfigFile(file: string): Config {
  return parseConfig(file, readConfigJson(file));
}

/**
 * Reads a project's config: its user-only fields are named and left out before it is checked,
 * so a project's keymap or theme, never applied, can neither be applied nor stop tole starting.
 */
export function readProjectConfigFile(file: string): { config: Config; userOnly: UserOnlySetting[] } {
  const raw = readConfigJson(file);
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    return { config: parseConfig(file, raw), userOnly: [] };
  const rest: Record<string, unknown> = { ...raw };
  const userOnly: UserOnlySetting[] = USER_ONLY_FIELDS.filter((field) => field in rest);
  for (const field of userOnly) delete rest[field];
  // What confined commands may read of the user's home is the user's to widen, never a repository's.
  const sandbox = rest['sandbox'];
  if (sandbox !== null && typeof sandbox === 'object' && !Array.isArray(sandbox) && 'readable' in sandbox) {
    const { readable: _dropped, ...kept } = sandbox as Record<string, unknown>;
    if (Object.keys(kept).length > 0) rest['sandbox'] = kept;
    else delete rest['sandbox'];
    userOnly.push('sandbox.readable');
  }
  return { config: parseConfig(file, rest), userOnly };
}

function readConfigJson(file: string): unknown {
  try {
    return JSON.parse(readRegularFile(file).toString('utf8'));
  } catch (error) {
    const reason =
      (error as NodeJS.ErrnoException).code === 'ENOENT'
        ? 'file not found'
        : (error as NodeJS.ErrnoException).code === 'ENOTREG'
          ? (error as Error).message
          : `not valid JSON: ${(error as Error).message}`;
    throw new ConfigError(file, `config ${file}: ${reason}`);
  }
}

function parseConfig(file: string, raw: unknown): Config {
  const parsed = configSchema().safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  if (issue.code === 'unrecognized_keys') {
    const field = [...issue.path, issue.keys[0]!].join('.');
    const known = fieldsAt(configSchema(), issue.path);
    throw new ConfigError(
      file,
      `config ${file}: field "${field}" is not a config field${known.length > 0 ? ` (known here: ${known.join(', ')})` : ''}`,
    );
  }
  const field = issue.path.length > 0 ? issue.path.join('.') : '(top level)';
  const message =
    issue.code === 'invalid_format' && issue.format === 'url'
      ? field === 'sync.url'
        ? 'expected a PostgreSQL URL such as postgres://tole@db.example:5432/tole (the password goes in PGPASSWORD or ~/.pgpass)'
        : 'expected an http(s) URL such as http://127.0.0.1:11434/v1'
      : issue.message;
  throw new ConfigError(file, `config ${file}: field "${field}": ${message}`);
}

/** The fields an object of the schema takes at `path` (through records and optionals). */
function fieldsAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  const zod = zodNow();
  let at: z.ZodType | undefined = schema;
  for (const key of [...path, null]) {
    while (at instanceof zod.ZodOptional) at = at.unwrap() as z.ZodType;
    if (key === null) break;
    if (at instanceof zod.ZodObject) at = (at.shape as Record<string, z.ZodType>)[String(key)];
    else if (at instanceof zod.ZodRecord) at = at.valueType as z.ZodType;
    else return [];
  }
  return at instanceof zod.ZodObject ? Object.keys(at.shape) : [];
}

/**
 * The fields a project config (one found in the workspace, written by whoever wrote the
 * repository) may set only once the user has trusted its folder: each one can run a command,
 * send the user's key, conversation or sessions somewhere else, loosen approval, the sandbox
 * or the checkpoints, or write outside the workspace. A field added to the config that can do any of these belongs here;
 * every other field is applied from any config (limits only ever tighten, see `restrictLimits`).
 */
export const TRUST_GATED_FIELDS = [
  'hooks',
  'allow',
  'baseUrl',
  'keyOverHttp',
  'provider',
  'providers',
  'sessionsDir',
  'sync',
  'checkpoints',
  'passEnv',
  'sandbox',
  'trustedGitKeys',
] as const satisfies readonly (keyof Config)[];

type TrustGatedField = (typeof TRUST_GATED_FIELDS)[number];

/**
 * The fields that change what the user sees or how their keys are read: the keys that answer an
 * approval, the colours that tell a danger apart, the prices the cost figures are made of, the
 * bell and notifications the terminal gets (a repository must not make tole ring). They
 * are the user's alone: a project config's are never applied, trusted or not, and are named in a
 * notice. A field added to the config that changes the screen or the keys belongs here.
 */
export const USER_ONLY_FIELDS = ['keymap', 'theme', 'pricing', 'notify'] as const satisfies readonly (keyof Config)[];

type UserOnlyField = (typeof USER_ONLY_FIELDS)[number];

/** A user-only field, or the user-only part of a field a trusted project may set (`sandbox.readable`). */
type UserOnlySetting = UserOnlyField | 'sandbox.readable';

/** What was decided about the workspace's project config. */
export interface ProjectConfigTrust {
  /** The project config file (`<cwd>/tole.config.json`). */
  readonly file: string;
  /** Its folder's real path and the hash of its bytes: what trust is keyed by. */
  readonly fingerprint: FolderFingerprint;
  /** True when the user trusted this folder with these very bytes, or `--trust` was given. */
  readonly trusted: boolean;
  /** The trust-gated fields it sets that were not applied (empty when trusted). */
  readonly ignored: readonly TrustGatedField[];
  /** The user-only fields it sets: never applied from a project. */
  readonly userOnly: readonly UserOnlySetting[];
  /** The file as written, all of it: what trusting it would do. */
  readonly asWritten: Config;
}

/** MCP servers a project's own config names, kept apart: they start only from a trusted project. */
export interface ProjectMcpServers {
  readonly file: string;
  readonly servers: Readonly<Record<string, McpServerConfig>>;
}

interface LoadedConfig {
  /**
   * The effective config: user config, then the project config over it (only its harmless
   * fields when untrusted). Its `mcpServers` are the user's own (and those of `--config FILE`).
   */
  readonly config: Config;
  /** The config files read, user first. */
  readonly files: string[];
  /** The workspace's project config and whether it was trusted; null when there is none (or `--config` named the file). */
  readonly project: ProjectConfigTrust | null;
  /**
   * Whether configuration found in the workspace may act: true when the project config is
   * trusted, or when there is no project config and the folder was trusted before. Anything
   * else read from the workspace that can run commands or send data (agent profiles, MCP
   * servers) is honoured only when this is true.
   */
  readonly projectTrusted: boolean;
  /** `mcpServers` of the project's `tole.config.json`, when it has any (they start only when `projectTrusted`). */
  readonly projectMcp: ProjectMcpServers | null;
  /** What trusting the workspace would trust (its config and `.tole`); null with `--config FILE`. */
  readonly fingerprint: FolderFingerprint | null;
}

interface LoadConfigOptions {
  /** `--config FILE`: given on the command line, so trusted, and read in place of the project config. */
  readonly explicit?: string | undefined;
  /** `--trust`: trust the workspace's project config for this run. */
  readonly trust?: boolean;
}

/**
 * User config (always trusted), then the project's `tole.config.json` over it: all of it when
 * the user trusted the folder, else only its harmless fields. `--config FILE` replaces the
 * project config and is trusted (the user named it).
 */
export function loadConfig(cwd: string, env: NodeJS.ProcessEnv, options: LoadConfigOptions = {}): LoadedConfig {
  const files: string[] = [];
  let config: Config = {};
  const user = userConfigPath(env);
  if (existsSync(user)) {
    config = mergeConfig(config, readConfigFile(user));
    files.push(user);
  }
  if (options.explicit) {
    const file = resolve(cwd, options.explicit);
    config = mergeConfig(config, readConfigFile(file));
    files.push(file);
    return { config, files, project: null, projectTrusted: true, projectMcp: null, fingerprint: null };
  }
  const store = TrustStore.at(trustStorePath(user));
  const file = join(cwd, 'tole.config.json');
  if (!existsSync(file)) {
    const print = fingerprint(cwd, Buffer.alloc(0), ownStateDirs(env));
    return {
      config,
      files,
      project: null,
      projectTrusted: options.trust === true || store.isTrusted(print),
      projectMcp: null,
      fingerprint: print,
    };
  }
  const { config: asWritten, userOnly } = readProjectConfigFile(file);
  files.push(file);
  const print = fingerprint(dirname(file), readRegularFile(file), ownStateDirs(env));
  const trusted = options.trust === true || store.isTrusted(print);
  const ignored = trusted ? [] : TRUST_GATED_FIELDS.filter((field) => asWritten[field] !== undefined);
  // The workspace's MCP servers stay apart whether trusted or not: they start only when trusted.
  // Its user-only fields were left out when it was read.
  const { mcpServers, ...rest } = asWritten;
  config = mergeConfig(config, trusted ? rest : harmlessPart(rest, config));
  const projectMcp = mcpServers && Object.keys(mcpServers).length > 0 ? { file, servers: mcpServers } : null;
  return {
    config,
    files,
    project: { file, fingerprint: print, trusted, ignored, userOnly, asWritten },
    projectTrusted: trusted,
    projectMcp,
    fingerprint: print,
  };
}

/** Trusts a folder with its project config as it is now (`tole trust`, the `t` key of the trust prompt). */
export function trustFolder(env: NodeJS.ProcessEnv, print: FolderFingerprint, nowIso: string): void {
  TrustStore.at(trustStorePath(userConfigPath(env))).trust(print, nowIso);
}

/** `ignored from ./tole.config.json (this folder is not trusted): hooks, baseUrl; ...` */
export function untrustedNotice(project: ProjectConfigTrust, how: string): string {
  return `ignored from ${project.file} (this folder is not trusted): ${project.ignored.join(', ')}; ${how}`;
}

/** `ignored from ./tole.config.json: keymap, theme (...)`, or null when it sets none of them. */
export function userOnlyNotice(project: ProjectConfigTrust, env: NodeJS.ProcessEnv): string | null {
  if (project.userOnly.length === 0) return null;
  return `ignored from ${project.file}: ${project.userOnly.join(', ')} (they change what you see, how your keys are read or what confined commands may read of your home: only your own config, ${userConfigPath(env)}, sets them)`;
}

/** An untrusted project config without its trust-gated fields, its limits only tightening `base`'s. */
function harmlessPart(project: Config, base: Config): Config {
  const harmless: Record<string, unknown> = { ...project };
  for (const field of TRUST_GATED_FIELDS) delete harmless[field];
  if (project.limits) harmless['limits'] = restrictLimits(project.limits, base.limits ?? {});
  return harmless as Config;
}

type Limits = NonNullable<Config['limits']>;

const LIMIT_DEFAULTS: Readonly<Record<string, number>> = {
  ...DEFAULT_LIMITS,
  ...DEFAULT_SUB_AGENT_LIMITS,
  maxAttempts: defaultRetryPolicy.maxAttempts,
};

/** Each limit of an untrusted config counts only where it is lower than the one it would replace. */
function restrictLimits(project: Limits, base: Limits): Limits {
  const out: Record<string, number> = {};
  for (const [name, value] of Object.entries(project)) {
    if (value === undefined) continue;
    const current = (base as Record<string, number | undefined>)[name] ?? LIMIT_DEFAULTS[name];
    if (current === undefined || value < current) out[name] = value;
  }
  return out as Limits;
}

function mergeConfig(base: Config, over: Config): Config {
  return {
    ...base,
    ...over,
    providers: { ...base.providers, ...over.providers },
    pricing: { ...base.pricing, ...over.pricing },
    allow: [...(base.allow ?? []), ...(over.allow ?? [])],
    keymap: { ...base.keymap, ...over.keymap },
    limits: { ...base.limits, ...over.limits },
    compaction: { ...base.compaction, ...over.compaction },
    hooks: { ...base.hooks, ...over.hooks },
    ...(base.sync || over.sync ? { sync: { ...base.sync, ...over.sync } as NonNullable<Config['sync']> } : {}),
    mcpServers: { ...base.mcpServers, ...over.mcpServers },
    checkpoints: { ...base.checkpoints, ...over.checkpoints },
    ...(base.sandbox || over.sandbox ? { sandbox: { ...base.sandbox, ...over.sandbox } } : {}),
    generation: { ...base.generation, ...over.generation },
  };
}
