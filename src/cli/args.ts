/** Command-line parsing: no dependency, every flag known, unknown ones are a usage error. */

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export type OutputFormat = 'text' | 'json';

export interface CliArgs {
  readonly command:
    | 'tui'
    | 'headless'
    | 'sessions'
    | 'check'
    | 'export'
    | 'convert'
    | 'sync'
    | 'restore'
    | 'unlock'
    | 'trust'
    | 'help'
    | 'version';
  readonly prompt?: string;
  readonly continueLast: boolean;
  /** `--resume` with a value; `''` when given without one (the TUI picker). */
  readonly resume?: string;
  readonly model?: string;
  /** `--agent NAME`: the agent profile to run with. */
  readonly agent?: string;
  readonly baseUrl?: string;
  readonly yes: boolean;
  /** `--trust`: apply the workspace's project config whole for this run. */
  readonly trust: boolean;
  readonly allow: readonly string[];
  readonly theme?: string;
  readonly config?: string;
  readonly output: OutputFormat;
  readonly readOnly: boolean;
  readonly all: boolean;
  /** `tole restore ... --dry-run`: show what would change, change nothing. */
  readonly dryRun: boolean;
  /** `tole sync --password-stdin`: the team server's password is read from stdin, never from argv. */
  readonly passwordStdin: boolean;
  /** `tole unlock PATH --force`: remove a lock whose holder tole cannot check (another host, a container). */
  readonly force: boolean;
  readonly format?: string;
  readonly branch?: string;
  readonly entry?: string;
  readonly out?: string;
  /** `tole convert PATH --to sqlite|jsonl`; `tole sync --to postgres://...`. */
  readonly to?: string;
  /** `--from [postgres://...]`: read sessions from the team's server; `''` means the config's sync URL. */
  readonly from?: string;
  /** Format of a new session: jsonl (default) or sqlite. */
  readonly storage?: 'jsonl' | 'sqlite';
  readonly positional: readonly string[];
}

const VALUE_FLAGS: Record<string, keyof CliArgs> = {
  '-p': 'prompt',
  '--prompt': 'prompt',
  '--model': 'model',
  '-m': 'model',
  '--agent': 'agent',
  '--base-url': 'baseUrl',
  '--theme': 'theme',
  '--config': 'config',
  '--output': 'output',
  '--format': 'format',
  '--branch': 'branch',
  '--entry': 'entry',
  '-o': 'out',
  '--to': 'to',
  '--storage': 'storage',
};

const SUBCOMMANDS = new Set(['sessions', 'check', 'export', 'convert', 'sync', 'restore', 'unlock', 'trust']);

/** What each value flag takes, for the error when the value is missing. */
const METAVARS: Record<string, string> = {
  '-p': 'PROMPT',
  '--prompt': 'PROMPT',
  '--model': 'NAME',
  '-m': 'NAME',
  '--agent': 'NAME',
  '--base-url': 'URL',
  '--theme': 'NAME|PATH',
  '--config': 'FILE',
  '--output': 'text|json',
  '--format': 'md|json',
  '--branch': 'LANE',
  '--entry': 'ID',
  '-o': 'FILE',
  '--to': 'sqlite|jsonl (convert) or postgres://... (sync)',
  '--storage': 'jsonl|sqlite',
  '--allow': 'RULE',
};

/** How many paths each subcommand takes after its name. */
const SUBCOMMAND_ARITY: Record<string, number> = {
  sessions: 0,
  check: 1,
  export: 1,
  convert: 1,
  sync: 0,
  restore: 1,
  unlock: 1,
  trust: 1,
};

export function parseArgs(argv: readonly string[]): CliArgs {
  const values: Record<string, string> = {};
  const allow: string[] = [];
  const positional: string[] = [];
  const flags = {
    continueLast: false,
    yes: false,
    trust: false,
    readOnly: false,
    all: false,
    dryRun: false,
    passwordStdin: false,
    force: false,
    help: false,
    version: false,
  };
  let resume: string | undefined;
  let from: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const raw = argv[i]!;
    const [flag, inline] =
      raw.startsWith('--') && raw.includes('=')
        ? [raw.slice(0, raw.indexOf('=')), raw.slice(raw.indexOf('=') + 1)]
        : [raw, undefined];
    const takeValue = (): string => {
      if (inline !== undefined) return inline;
      const next = argv[i + 1];
      if (next === undefined)
        throw new UsageError(`${flag} needs a value: ${flag} ${METAVARS[flag] ?? 'VALUE'} (see tole --help)`);
      i++;
      return next;
    };
    if (flag in VALUE_FLAGS && VALUE_FLAGS[flag] === 'prompt' && values['prompt'] !== undefined)
      // A headless run is one turn: a second prompt would be dropped without a word.
      throw new UsageError(
        `${flag} was given twice: tole -p runs one turn with one prompt; put it all in one -p "…", or send the next with tole -c -p "…" once this one ends (-c continues the last session)`,
      );
    if (flag in VALUE_FLAGS) values[VALUE_FLAGS[flag]!] = takeValue();
    else if (flag === '--allow') allow.push(takeValue());
    else if (flag === '--resume' || flag === '-r') {
      const next = argv[i + 1];
      resume = inline ?? (next !== undefined && !next.startsWith('-') ? (i++, next) : '');
    } else if (flag === '--from') {
      // The URL is optional (the config's sync URL is the default): taken only when it looks like one.
      const next = argv[i + 1];
      from = inline ?? (next?.includes('://') ? (i++, next) : '');
    } else if (flag === '-c' || flag === '--continue') flags.continueLast = true;
    else if (flag === '-y' || flag === '--yes') flags.yes = true;
    else if (flag === '--trust') flags.trust = true;
    else if (flag === '--read-only') flags.readOnly = true;
    else if (flag === '--all') flags.all = true;
    else if (flag === '--dry-run') flags.dryRun = true;
    else if (flag === '--password-stdin') flags.passwordStdin = true;
    else if (flag === '--force') flags.force = true;
    else if (flag === '-h' || flag === '--help') flags.help = true;
    else if (flag === '-v' || flag === '--version') flags.version = true;
    else if (flag.startsWith('-') && flag !== '-') throw new UsageError(`unknown flag ${flag} (see tole --help)`);
    else positional.push(raw);
  }
  const output = values['output'] ?? 'text';
  if (output !== 'text' && output !== 'json') throw new UsageError(`--output must be text or json, not "${output}"`);
  const storage = values['storage'];
  if (storage !== undefined && storage !== 'jsonl' && storage !== 'sqlite')
    throw new UsageError(`--storage must be jsonl or sqlite, not "${storage}"`);
  const command = pickCommand(positional, flags, values['prompt']);
  if (command === 'tui' && positional.length > 0)
    throw new UsageError(`unknown command "${positional[0]}" (see tole --help)`);
  if (command === 'headless' && values['prompt']!.trim() === '')
    throw new UsageError('-p needs a prompt: tole -p "what to do"');
  if (command === 'headless' && positional.length > 0) {
    throw new UsageError(
      `unexpected argument "${positional[0]}": a prompt of several words goes in quotes, tole -p "${[values['prompt'], ...positional].join(' ')}"`,
    );
  }
  if (command === 'headless' && resume === '')
    throw new UsageError(
      '--resume with -p needs a session: tole -p PROMPT --resume ID|PATH (list them with tole sessions)',
    );
  const arity = SUBCOMMAND_ARITY[command];
  if (arity !== undefined && positional.length - 1 > arity) {
    throw new UsageError(
      `unexpected argument "${positional[arity + 1]}" after tole ${command}${arity === 0 ? '' : ' PATH'} (see tole --help)`,
    );
  }
  if (flags.continueLast && resume !== undefined) throw new UsageError('use either -c or --resume, not both');
  if (flags.passwordStdin && command !== 'sync')
    throw new UsageError("--password-stdin is for tole sync: it reads the team server's password from stdin");
  if (command === 'restore' && flags.readOnly)
    throw new UsageError(
      'tole restore writes the files and the session: leave out --read-only (--dry-run shows what it would change and changes nothing)',
    );
  if (command === 'headless' && flags.readOnly)
    throw new UsageError('-p runs a turn, which writes to the session: leave out --read-only');
  return {
    command,
    continueLast: flags.continueLast,
    yes: flags.yes,
    trust: flags.trust,
    allow,
    readOnly: flags.readOnly,
    all: flags.all,
    dryRun: flags.dryRun,
    passwordStdin: flags.passwordStdin,
    force: flags.force,
    positional: SUBCOMMANDS.has(positional[0] ?? '') ? positional.slice(1) : positional,
    ...(resume !== undefined ? { resume } : {}),
    ...(from !== undefined ? { from } : {}),
    ...(values as Partial<CliArgs>),
    output: output as OutputFormat,
  } as CliArgs;
}

function pickCommand(
  positional: readonly string[],
  flags: { help: boolean; version: boolean },
  prompt: string | undefined,
): CliArgs['command'] {
  if (flags.help) return 'help';
  if (flags.version) return 'version';
  const first = positional[0];
  if (first && SUBCOMMANDS.has(first)) return first as CliArgs['command'];
  if (prompt !== undefined) return 'headless';
  return 'tui';
}
