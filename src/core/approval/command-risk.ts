/**
 * The risk of a bash command line: the highest risk of any command it may run, anywhere in it
 * (lists, pipes, substitutions, `bash -c` strings, wrappers like `sudo` or `xargs`), with the
 * reason of the part that decided. What cannot be understood is Destructive.
 */
import { RISK_ORDER, type Risk, type RiskAssessment } from './risk';
import {
  AWK_RULES,
  CODE_LOADING_VARIABLE_PREFIXES,
  CODE_LOADING_VARIABLES,
  COMMAND_RULES,
  COMMAND_VARIABLES,
  DECLARING_BUILTINS,
  DESTRUCTIVE_NAME_PREFIXES,
  DOWNLOADERS,
  FIND_ACTIONS,
  GIT_GLOBAL_OPTIONS,
  GIT_SUBCOMMANDS,
  HARMLESS_TARGET_PREFIXES,
  HARMLESS_TARGETS,
  INTERPRETER_CODE_OPTIONS,
  INTERPRETERS,
  OPAQUE_SCRIPT_PREFIXES,
  SED_RULES,
  SHELL_OPTIONS,
  SHELLS,
  STDIN_SCRIPT_PATHS,
  UNKNOWN_COMMAND_REASON,
  VERSION_QUERIES,
  VERSION_QUERY_ARGS,
  WRAPPERS,
  type ArgPattern,
  type CommandRule,
  type ListForm,
  type OverwriteSpec,
  type WrapperRule,
} from './command-rules';
import {
  literalWord,
  MAX_SHELL_DEPTH,
  type Command,
  type Redirect,
  type Script,
  type SimpleCommand,
  type Word,
} from './shell/syntax';
import { parseShell } from './shell/parser';

export interface ClassifyOptions {
  /**
   * Whether a path, as written in the command (relative to the workspace), exists. Decides
   * whether `> f`, `mv a f` or `git checkout f` destroys something. Default: every path exists.
   */
  readonly exists?: (path: string) => boolean;
  /** Whether a path is a directory (`mv a dir` moves into it). Default: none is. */
  readonly isDirectory?: (path: string) => boolean;
}

/** Bound on the commands looked at for one line, whatever its shape. */
const MAX_CLASSIFY_STEPS = 5_000;
/** Bound on the arguments of one unknown command searched for an embedded command. */
const MAX_EMBEDDED_SCANS = 16;

export function classifyCommand(line: string, opts: ClassifyOptions = {}): RiskAssessment {
  const ctx: Ctx = {
    exists: opts.exists ?? (() => true),
    isDirectory: opts.isDirectory ?? (() => false),
    depth: 0,
    stdin: { kind: 'terminal' },
    elsewhere: false,
    state: { cwdUnknown: false, steps: MAX_CLASSIFY_STEPS, written: new Set() },
  };
  return decide(classifyLine(line, ctx));
}

interface Finding {
  readonly risk: Risk;
  readonly reason: string;
  /** For ReadOnly findings: the command that only reads. */
  readonly reader?: string;
  /** For Write findings: it runs code tole cannot see into (a script, `python3 -c`, a Makefile). */
  readonly opaque?: true;
}

type Stdin =
  | { readonly kind: 'terminal' }
  | { readonly kind: 'pipe'; readonly download: boolean }
  | { readonly kind: 'file' }
  | { readonly kind: 'text'; readonly text: string; readonly expands: boolean };

interface Ctx {
  readonly exists: (path: string) => boolean;
  readonly isDirectory: (path: string) => boolean;
  readonly depth: number;
  readonly stdin: Stdin;
  /** Relative paths point somewhere else (`git -C dir`). */
  readonly elsewhere: boolean;
  /**
   * Shared by the whole line: a `cd` makes later relative paths unknown; `written` holds the
   * paths the line writes, so that running one of them later in the line is caught.
   */
  readonly state: { cwdUnknown: boolean; steps: number; readonly written: Set<string> };
}

const readOnly = (reason: string, reader: string): Finding => ({ risk: 'ReadOnly', reason, reader });
const write = (reason: string): Finding => ({ risk: 'Write', reason });
const opaqueWrite = (reason: string): Finding => ({ risk: 'Write', reason, opaque: true });
const destructive = (reason: string): Finding => ({ risk: 'Destructive', reason });
const unparseable = (detail: string): Finding =>
  destructive(`the command cannot be parsed, so it is treated as Destructive: ${detail}`);

function decide(findings: readonly Finding[]): RiskAssessment {
  let top: Finding | undefined;
  for (const f of findings) if (!top || RISK_ORDER[f.risk] > RISK_ORDER[top.risk]) top = f;
  if (!top) return { risk: 'ReadOnly', reason: 'the command does nothing' };
  if (top.risk === 'Write') {
    const opaque = findings.find((f) => f.risk === 'Write' && f.opaque);
    return opaque ? { risk: 'Write', reason: opaque.reason, opaque: true } : { risk: 'Write', reason: top.reason };
  }
  if (top.risk !== 'ReadOnly') return { risk: top.risk, reason: top.reason };
  const readers = [...new Set(findings.flatMap((f) => (f.reader ? [f.reader] : [])))];
  if (readers.length < 2) return { risk: 'ReadOnly', reason: top.reason };
  return { risk: 'ReadOnly', reason: `${readers.map((r) => `\`${r}\``).join(', ')} only read` };
}

function own<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

function includes(list: readonly string[], value: string): boolean {
  return list.includes(value);
}

function basename(path: string): string {
  return path.replace(/\/+$/, '').split('/').pop() ?? '';
}

function deeper(ctx: Ctx, stdin: Stdin = ctx.stdin): Ctx {
  return { ...ctx, depth: ctx.depth + 1, stdin };
}

function isDynamic(w: Word): boolean {
  return w.expands || w.glob;
}

/** The word may turn into an option once bash expands it (`$X` = `-delete`, `*` matching `-rf`). */
function mayBeOption(w: Word): boolean {
  return w.expands || w.leadingGlob;
}

// ---- lines, pipelines, commands ----

function classifyLine(line: string, ctx: Ctx): Finding[] {
  const parsed = parseShell(line, ctx.depth);
  if (!parsed.ok) return [unparseable(parsed.error)];
  return classifyScript(parsed.script, ctx);
}

function classifyScript(script: Script, ctx: Ctx): Finding[] {
  const findings: Finding[] = [];
  for (const pipeline of script.pipelines) {
    let stdin = ctx.stdin;
    let download = false;
    for (const command of pipeline.commands) {
      findings.push(...classifyNode(command, { ...ctx, stdin }));
      download ||= downloads(command);
      stdin = { kind: 'pipe', download };
    }
  }
  return findings;
}

function classifyNode(command: Command, ctx: Ctx): Finding[] {
  switch (command.kind) {
    case 'simple':
      return classifySimple(command, ctx);
    case 'group':
      return [...classifyScript(command.body, ctx), ...command.redirects.flatMap((r) => classifyRedirect(r, ctx))];
    case 'function': {
      const findings = classifyNode(command.body, ctx);
      if (!commandNames(command.body).includes(command.name)) return findings;
      return [
        destructive(`\`${command.name}\` is defined to call itself (a fork bomb), which can exhaust the machine`),
        ...findings,
      ];
    }
  }
}

/** First words of every simple command inside `command`. */
function commandNames(command: Command): string[] {
  switch (command.kind) {
    case 'simple':
      return command.words.length > 0 ? [command.words[0]!.text] : [];
    case 'group':
      return command.body.pipelines.flatMap((p) => p.commands.flatMap(commandNames));
    case 'function':
      return commandNames(command.body);
  }
}

function downloads(command: Command): boolean {
  if (command.kind === 'simple') {
    return command.words.some((w) => includes(DOWNLOADERS, basename(w.text)) || w.substitutions.some(scriptDownloads));
  }
  return command.kind === 'group' ? scriptDownloads(command.body) : downloads(command.body);
}

function scriptDownloads(script: Script): boolean {
  return script.pipelines.some((p) => p.commands.some(downloads));
}

function classifySimple(command: SimpleCommand, ctx: Ctx): Finding[] {
  const inner: Ctx = { ...ctx, stdin: stdinOf(command.redirects, ctx.stdin) };
  const findings: Finding[] = [];
  for (const a of command.assignments) findings.push(...classifyAssignment(a.name, a.value, inner));
  for (const w of command.words) findings.push(...classifySubstitutions(w, inner));
  for (const r of command.redirects) findings.push(...classifyRedirect(r, inner));
  if (command.words.length > 0) findings.push(...classifyArgv(command.words, inner));
  if (
    isReader(command) &&
    inner.stdin.kind === 'text' &&
    !inner.stdin.expands &&
    isArmed(literalWord(inner.stdin.text))
  ) {
    findings.push(
      destructive(
        '`read` stores text holding `$(…)` or a backtick, a command bash runs if it ever evaluates the variable',
      ),
    );
  } else if (command.assignments.length > 0) findings.push(readOnly('it only sets shell variables', 'VAR=value'));
  return findings;
}

/** `read`, `mapfile`: they store stdin in variables. */
function isReader(command: SimpleCommand): boolean {
  const name = command.words[0] && basename(command.words[0].text);
  return name === 'read' || name === 'mapfile' || name === 'readarray';
}

function stdinOf(redirects: readonly Redirect[], inherited: Stdin): Stdin {
  let stdin = inherited;
  for (const r of redirects) {
    if ((r.fd !== undefined && r.fd !== 0) || r.fdName !== undefined) continue;
    if (r.op === '<' || r.op === '<>') stdin = { kind: 'file' };
    if (r.heredoc) stdin = { kind: 'text', text: r.heredoc.body, expands: r.heredoc.expands };
    if (r.op === '<<<') stdin = { kind: 'text', text: r.target.text, expands: r.target.expands };
  }
  return stdin;
}

function classifySubstitutions(w: Word, ctx: Ctx): Finding[] {
  return w.substitutions.flatMap((script) => classifyScript(script, ctx));
}

// ---- redirections and written paths ----

function classifyRedirect(r: Redirect, ctx: Ctx): Finding[] {
  const findings = classifySubstitutions(r.target, ctx);
  for (const script of r.heredoc?.substitutions ?? []) findings.push(...classifyScript(script, ctx));
  const label = `\`${r.fdName ? `{${r.fdName}}` : (r.fd ?? '')}${r.op} ${r.target.text}\``;
  const isDup = (r.op === '>&' || r.op === '<&') && /^(?:\d+-?|-)$/.test(r.target.text);
  if (isDup || r.op === '<' || r.op === '<<' || r.op === '<<-' || r.op === '<<<' || r.op === '<&') return findings;
  const mode = r.op === '>>' || r.op === '&>>' ? 'append' : r.op === '<>' ? 'open' : 'truncate';
  const finding = targetFinding(label, r.target, mode, ctx);
  return finding ? [...findings, finding] : findings;
}

type WriteMode = 'truncate' | 'append' | 'open' | 'replace';

/** What writing to `target` means: nothing for /dev/null, Destructive over an existing file. */
function targetFinding(label: string, target: Word, mode: WriteMode, ctx: Ctx): Finding | undefined {
  if (target.processSubstitution) return undefined;
  if (isDynamic(target)) return destructive(`${label} writes to a path only known when it runs`);
  const path = target.text;
  if (includes(HARMLESS_TARGETS, path) || HARMLESS_TARGET_PREFIXES.some((p) => path.startsWith(p))) return undefined;
  if (path.startsWith('/dev/')) return destructive(`${label} writes straight to the device ${path}`);
  ctx.state.written.add(normalizePath(path));
  if (mode === 'append') return write(`${label} appends to ${path}`);
  if (mode === 'open') return write(`${label} opens ${path} for writing`);
  if (!pathExists(ctx, path)) return write(`${label} creates ${path}`);
  return destructive(
    mode === 'replace'
      ? `${label} replaces the existing ${path}`
      : `${label} empties the existing file ${path} before writing`,
  );
}

function normalizePath(path: string): string {
  return path.replace(/^(?:\.\/+)+/, '');
}

/** `./build.sh` after `cat > build.sh`: the line runs a file it wrote itself. */
function runsWrittenFile(ctx: Ctx, path: string): Finding | undefined {
  if (!ctx.state.written.has(normalizePath(path))) return undefined;
  return destructive(`it runs ${path}, which the same command line writes, so tole cannot inspect what it does`);
}

function pathExists(ctx: Ctx, path: string): boolean {
  if (path.startsWith('~')) return true;
  if ((ctx.state.cwdUnknown || ctx.elsewhere) && !path.startsWith('/')) return true;
  return ctx.exists(path);
}

function pathIsDirectory(ctx: Ctx, path: string): boolean {
  if ((ctx.state.cwdUnknown || ctx.elsewhere) && !path.startsWith('/')) return false;
  return ctx.isDirectory(path);
}

// ---- variables ----

function classifyAssignment(name: string, value: Word, ctx: Ctx): Finding[] {
  const findings = classifySubstitutions(value, ctx);
  if (includes(COMMAND_VARIABLES, name)) {
    if (value.expands) findings.push(destructive(`\`${name}\` is set to a program only known when it runs`));
    else if (value.text.trim() !== '') findings.push(...classifyLine(value.text, deeper(ctx, { kind: 'terminal' })));
  }
  if (includes(CODE_LOADING_VARIABLES, name) || CODE_LOADING_VARIABLE_PREFIXES.some((p) => name.startsWith(p))) {
    findings.push(destructive(`setting \`${name}\` makes programs load code tole cannot inspect`));
  }
  if (name === 'PATH') findings.push(write('setting `PATH` changes which programs run'));
  if (isArmed(value)) {
    findings.push(
      destructive(
        `\`${name}\` holds the text \`${value.text}\`, a command bash runs if it ever evaluates the variable (arithmetic, prompts, \`\${${name}@P}\`)`,
      ),
    );
  }
  return findings;
}

/** Literal text holding `$(…)` or a backtick: inert now, a command once bash evaluates it again. */
function isArmed(value: Word): boolean {
  return value.substitutions.length === 0 && /\$\(|`/.test(value.text);
}

/** `export A=1`, `alias ls='…'`, `trap 'cmd' EXIT`: arguments that are assignments or commands. */
function builtinArgumentFindings(name: string, args: readonly Word[], ctx: Ctx): Finding[] {
  if (includes(DECLARING_BUILTINS, name)) {
    return args.flatMap((w) => {
      const m = /^([A-Za-z_][A-Za-z0-9_]*)\+?=/.exec(w.text);
      return m ? classifyAssignment(m[1]!, { ...w, text: w.text.slice(m[0].length) }, ctx) : [];
    });
  }
  if (name === 'alias') {
    return args.flatMap((w) => {
      const eq = w.text.indexOf('=');
      return eq > 0 ? classifyCommandString({ ...w, text: w.text.slice(eq + 1) }, ctx, 'alias') : [];
    });
  }
  if (name === 'trap' && args.length > 1 && !args[0]!.text.startsWith('-'))
    return classifyCommandString(args[0]!, ctx, 'trap');
  return [];
}

function classifyCommandString(w: Word, ctx: Ctx, via: string): Finding[] {
  if (w.expands) return [destructive(`\`${via}\` runs a command string only known when it runs (\`${w.text}\`)`)];
  return classifyLine(w.text, deeper(ctx));
}

// ---- one command ----

function classifyArgv(words: readonly Word[], ctx: Ctx): Finding[] {
  ctx.state.steps--;
  if (ctx.state.steps < 0) return [destructive('the command is too complex to check, so it is treated as Destructive')];
  if (ctx.depth > MAX_SHELL_DEPTH) return [unparseable(`it nests commands more than ${MAX_SHELL_DEPTH} levels deep`)];
  const first = words[0]!;
  if (isDynamic(first)) return [destructive(`the command name \`${first.text}\` is only known when it runs`)];
  if (first.text.includes('/')) {
    const written = runsWrittenFile(ctx, first.text);
    if (written) return [written];
  }
  const exact = basename(first.text);
  const name = exact.toLowerCase();
  const findings = dispatch(name, words, ctx);
  if (exact === name) return findings;
  return findings.map((f) => (f.risk === 'ReadOnly' ? write(UNKNOWN_COMMAND_REASON(exact)) : f));
}

function dispatch(name: string, words: readonly Word[], ctx: Ctx): Finding[] {
  const args = words.slice(1);
  const wrapper = own(WRAPPERS, name);
  if (wrapper) return classifyWrapped(name, wrapper, args, ctx);
  if (isVersionQuery(name, args, ctx)) return [readOnly(`\`${name} ${args[0]!.text}\` only prints`, name)];
  if (includes(SHELLS, name)) return classifyShell(name, args, ctx);
  if (name === 'eval') return classifyEval(args, ctx);
  if (name === 'find') return classifyFind(args, ctx);
  if (name === 'git') return classifyGit(args, ctx);
  if (name === 'sed') return classifySed(args);
  if (includes(AWK_RULES.names, name)) return classifyAwk(name, args);
  if (name === 'source' || name === '.') return classifySource(name, args, ctx);
  const prefix = DESTRUCTIVE_NAME_PREFIXES.find((p) => name.startsWith(p.prefix));
  if (prefix) return [destructive(prefix.reason)];
  if (includes(INTERPRETERS, name)) return classifyInterpreter(name, args, ctx);
  const rule = own(COMMAND_RULES, name);
  if (rule) return [...builtinArgumentFindings(name, args, ctx), ...applyRule(name, rule, args, ctx)];
  return classifyUnknown(name, words, ctx);
}

function isVersionQuery(name: string, args: readonly Word[], ctx: Ctx): boolean {
  const extra = own(VERSION_QUERIES, name);
  if (!extra || args.length !== 1 || isDynamic(args[0]!) || ctx.stdin.kind === 'pipe') return false;
  return includes(VERSION_QUERY_ARGS, args[0]!.text) || extra.includes(args[0]!.text);
}

// ---- wrappers: sudo, env, xargs, timeout … ----

interface WrapperArgs {
  readonly command: Word[];
  readonly outputs: Word[];
  readonly strings: Word[];
  readonly assignments: { name: string; value: Word }[];
  noRun: boolean;
  viaShell: boolean;
  replace?: string;
}

function classifyWrapped(name: string, spec: WrapperRule, args: readonly Word[], ctx: Ctx): Finding[] {
  const parsed = parseWrapperArgs(spec, args);
  if (typeof parsed === 'string') {
    return [
      destructive(
        `\`${name}\` is given \`${parsed}\`, an option tole does not know, so the command it runs cannot be found`,
      ),
    ];
  }
  const findings: Finding[] = spec.floor ? [{ risk: spec.floor.risk, reason: spec.floor.reason }] : [];
  for (const w of parsed.outputs)
    findings.push(...optional(targetFinding(`\`${name} -o ${w.text}\``, w, 'truncate', ctx)));
  for (const w of parsed.strings) findings.push(...classifyCommandString(w, ctx, name));
  for (const a of parsed.assignments) findings.push(...classifyAssignment(a.name, a.value, ctx));
  let command = parsed.command;
  if (command.length === 0 && spec.defaultCommand && !parsed.noRun) command = [literalWord(spec.defaultCommand)];
  if (parsed.noRun || command.length === 0) {
    const alone = parsed.noRun ? 'ReadOnly' : spec.aloneRisk;
    findings.push(
      alone === 'ReadOnly'
        ? readOnly(`\`${name}\` runs no command here`, name)
        : write(`\`${name}\` without a command`),
    );
    return findings;
  }
  if (spec.joinsArguments || parsed.viaShell) return [...findings, ...classifyJoined(name, command, ctx)];
  if (!spec.appendsArguments) return [...findings, ...classifyArgv(command, deeper(ctx))];
  const marked =
    parsed.replace === undefined
      ? command
      : command.map((w) => (w.text.includes(parsed.replace!) ? { ...w, expands: true } : w));
  return [...findings, ...classifyArgv([...marked, STDIN_ARGUMENTS], deeper(ctx, { kind: 'terminal' }))];
}

/** xargs appends arguments read from stdin: anything at all. */
const STDIN_ARGUMENTS: Word = { ...literalWord('<arguments read from stdin>'), plain: false, expands: true };

function optional(finding: Finding | undefined): Finding[] {
  return finding ? [finding] : [];
}

function classifyJoined(name: string, command: readonly Word[], ctx: Ctx): Finding[] {
  if (command.some((w) => w.expands)) return [destructive(`\`${name}\` runs a command only known when it runs`)];
  return classifyLine(command.map((w) => w.text).join(' '), deeper(ctx));
}

/** Options of a wrapper, up to the command it runs; a string is an option it does not know. */
function parseWrapperArgs(spec: WrapperRule, args: readonly Word[]): WrapperArgs | string {
  const out: WrapperArgs = { command: [], outputs: [], strings: [], assignments: [], noRun: false, viaShell: false };
  let leading = 0;
  let i = 0;
  for (; i < args.length; i++) {
    const w = args[i]!;
    const t = w.text;
    if (mayBeOption(w)) break;
    if (t === '--') {
      i++;
      break;
    }
    const assignment = spec.assignments ? /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(t) : null;
    if (assignment)
      out.assignments.push({ name: assignment[1]!, value: { ...w, text: t.slice(assignment[0].length) } });
    else if (t === '-' && spec.assignments) continue;
    else if (t.startsWith('--')) {
      const used = wrapperLongOption(spec, args, i, out);
      if (used < 0) return t;
      i += used;
    } else if (t.startsWith('-') && t.length > 1) {
      if (spec.numericOption && /^-\d+$/.test(t)) continue;
      const used = wrapperShortOptions(spec, args, i, out);
      if (used < 0) return t;
      i += used;
    } else if (leading < (spec.leadingArguments ?? 0)) leading++;
    else break;
  }
  out.command.push(...args.slice(i));
  return out;
}

/** Returns how many extra words the option used (its value), or -1 when it is unknown. */
function wrapperLongOption(spec: WrapperRule, args: readonly Word[], i: number, out: WrapperArgs): number {
  const w = args[i]!;
  const eq = w.text.indexOf('=');
  const name = eq < 0 ? w.text : w.text.slice(0, eq);
  if (includes(spec.noRunOptions ?? [], name)) out.noRun = true;
  if (includes(spec.shellOptions ?? [], name)) out.viaShell = true;
  if (includes(spec.longFlags ?? [], name) || includes(spec.noRunOptions ?? [], name)) return 0;
  if (!includes(spec.longValues ?? [], name)) return -1;
  const value = eq < 0 ? args[i + 1] : { ...w, text: w.text.slice(eq + 1) };
  if (value === undefined) return -1;
  recordWrapperValue(spec, name, value, out);
  return eq < 0 ? 1 : 0;
}

function wrapperShortOptions(spec: WrapperRule, args: readonly Word[], i: number, out: WrapperArgs): number {
  const t = args[i]!.text;
  for (let j = 1; j < t.length; j++) {
    const letter = t[j]!;
    const name = `-${letter}`;
    if (includes(spec.noRunOptions ?? [], name)) out.noRun = true;
    if (includes(spec.shellOptions ?? [], name)) out.viaShell = true;
    if ((spec.shortFlags ?? '').includes(letter) || includes(spec.noRunOptions ?? [], name)) continue;
    if ((spec.shortOptionalValues ?? '').includes(letter)) {
      recordWrapperValue(spec, name, { ...args[i]!, text: t.slice(j + 1) || '{}' }, out);
      return 0;
    }
    if (!(spec.shortValues ?? '').includes(letter)) return -1;
    const attached = t.slice(j + 1);
    const value = attached ? { ...args[i]!, text: attached } : args[i + 1];
    if (value === undefined) return -1;
    recordWrapperValue(spec, name, value, out);
    return attached ? 0 : 1;
  }
  return 0;
}

function recordWrapperValue(spec: WrapperRule, name: string, value: Word, out: WrapperArgs): void {
  if (includes(spec.outputOptions ?? [], name)) out.outputs.push(value);
  if (includes(spec.stringOptions ?? [], name)) out.strings.push(value);
  if (spec.appendsArguments && (name === '-I' || name === '-i' || name === '--replace')) out.replace = value.text;
}

// ---- shells, eval, interpreters, source ----

function classifyShell(name: string, args: readonly Word[], ctx: Ctx): Finding[] {
  const findings: Finding[] = [];
  let commandMode = false;
  let readsStdin = false;
  let i = 0;
  for (; i < args.length; i++) {
    const w = args[i]!;
    const t = w.text;
    if (mayBeOption(w)) break;
    if (t === '--' || t === '-') {
      i++;
      break;
    }
    if (t.startsWith('--')) {
      const used = shellLongOption(name, args, i, ctx, findings);
      if (used < 0) return [destructive(`\`${name} ${t}\` is an option tole does not know`)];
      i += used;
    } else if ((t.startsWith('-') || t.startsWith('+')) && t.length > 1) {
      const letters = t.slice(1);
      if (
        [...letters].some(
          (c) => c !== 'c' && !SHELL_OPTIONS.shortFlags.includes(c) && !SHELL_OPTIONS.shortValues.includes(c),
        )
      ) {
        return [destructive(`\`${name} ${t}\` is an option tole does not know`)];
      }
      commandMode ||= letters.includes('c');
      readsStdin ||= letters.includes('s');
      i += [...letters].filter((c) => SHELL_OPTIONS.shortValues.includes(c)).length;
    } else break;
  }
  const rest = args.slice(i);
  if (commandMode) {
    if (rest.length === 0) return [...findings, unparseable(`\`${name} -c\` has no command string`)];
    return [...findings, ...classifyCommandString(rest[0]!, ctx, `${name} -c`)];
  }
  if (rest.length > 0 && !readsStdin) return [...findings, ...scriptFindings(name, rest[0]!, ctx, true)];
  return [...findings, ...classifyStdinCode(name, ctx, true)];
}

function shellLongOption(name: string, args: readonly Word[], i: number, ctx: Ctx, findings: Finding[]): number {
  const t = args[i]!.text;
  const eq = t.indexOf('=');
  const option = eq < 0 ? t : t.slice(0, eq);
  if (includes(SHELL_OPTIONS.longFlags, option)) return 0;
  const takesValue = includes(SHELL_OPTIONS.longValues, option) || includes(SHELL_OPTIONS.stringOptions, option);
  if (!takesValue) return -1;
  const value = eq < 0 ? args[i + 1] : { ...args[i]!, text: t.slice(eq + 1) };
  if (value === undefined) return -1;
  if (includes(SHELL_OPTIONS.stringOptions, option))
    findings.push(...classifyCommandString(value, ctx, `${name} ${option}`));
  else findings.push(...scriptFindings(`${name} ${option}`, value, ctx, true));
  return eq < 0 ? 1 : 0;
}

/** `bash script.sh`, `bash <(curl …)`, `source /dev/stdin`. */
function scriptFindings(name: string, script: Word, ctx: Ctx, isShell: boolean): Finding[] {
  if (script.processSubstitution) {
    const what = script.substitutions.some(scriptDownloads)
      ? 'a downloaded script nobody has read'
      : 'a script tole cannot inspect';
    return [destructive(`\`${name} <(…)\` runs ${what}`)];
  }
  if (isDynamic(script)) return [destructive(`\`${name}\` runs a script whose name is only known when it runs`)];
  if (includes(STDIN_SCRIPT_PATHS, script.text)) return classifyStdinCode(name, ctx, isShell);
  if (OPAQUE_SCRIPT_PREFIXES.some((p) => script.text.startsWith(p)))
    return [destructive(`\`${name} ${script.text}\` runs code tole cannot inspect`)];
  return [
    runsWrittenFile(ctx, script.text) ??
      opaqueWrite(`\`${name} ${script.text}\` runs a script whose commands tole does not inspect`),
  ];
}

/** A shell or interpreter given no code on its command line runs whatever arrives on stdin. */
function classifyStdinCode(name: string, ctx: Ctx, isShell: boolean): Finding[] {
  const stdin = ctx.stdin;
  switch (stdin.kind) {
    case 'pipe':
      return [
        destructive(
          stdin.download
            ? `piping a download into \`${name}\` runs code nobody has read`
            : `piping into \`${name}\` runs code tole cannot inspect`,
        ),
      ];
    case 'text':
      if (!isShell) return [opaqueWrite(`\`${name}\` runs code from a heredoc, which tole does not inspect`)];
      if (stdin.expands) return [destructive(`\`${name}\` runs a heredoc whose text is only known when it runs`)];
      return classifyLine(stdin.text, deeper(ctx, { kind: 'terminal' }));
    case 'file':
      return [opaqueWrite(`\`${name}\` runs commands from a file tole does not inspect`)];
    case 'terminal':
      return [
        isShell
          ? write(`\`${name}\` starts an interactive shell`)
          : opaqueWrite(`\`${name}\` runs code tole does not inspect`),
      ];
  }
}

function classifyEval(args: readonly Word[], ctx: Ctx): Finding[] {
  if (args.length === 0) return [readOnly('`eval` alone does nothing', 'eval')];
  if (args.some((w) => w.expands)) return [destructive('`eval` runs text only known when it runs')];
  return classifyLine(args.map((w) => w.text).join(' '), deeper(ctx));
}

function classifyInterpreter(name: string, args: readonly Word[], ctx: Ctx): Finding[] {
  const code = args.some((w) => includes(INTERPRETER_CODE_OPTIONS, w.text) || /^-[A-Za-z]*[ceE]$/.test(w.text));
  const script = args.find((w) => !w.text.startsWith('-') || w.text === '-');
  if (!code && (script === undefined || script.text === '-')) return classifyStdinCode(name, ctx, false);
  if (!code && script) return scriptFindings(name, script, ctx, false);
  return [opaqueWrite(`\`${name}\` runs code tole does not inspect`)];
}

function classifySource(name: string, args: readonly Word[], ctx: Ctx): Finding[] {
  const script = args[0];
  if (script) return scriptFindings(name, script, ctx, true);
  return [opaqueWrite(`\`${name}\` runs a script whose commands tole does not inspect`)];
}

// ---- find, git, sed, awk ----

function classifyFind(args: readonly Word[], ctx: Ctx): Finding[] {
  const findings: Finding[] = [];
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    const t = w.text;
    if (mayBeOption(w))
      findings.push(destructive(`\`find\` is given \`${t}\`, only known when it runs, which could be \`-delete\``));
    else if (includes(FIND_ACTIONS.delete, t))
      findings.push(destructive('`find -delete` deletes every file it matches'));
    else if (includes(FIND_ACTIONS.exec, t)) {
      const end = findExecEnd(args, i + 1);
      if (end <= i + 1) return [...findings, unparseable(`\`find ${t}\` has no command ending in \`;\` or \`+\``)];
      // `{}` becomes a file name, only known when find runs (and a name can hold anything).
      const command = args
        .slice(i + 1, end)
        .map((word) => (word.text.includes('{}') ? { ...word, expands: true } : word));
      findings.push(...classifyArgv(command, deeper(ctx, { kind: 'terminal' })));
      i = end;
    } else if (own(FIND_ACTIONS.output, t) !== undefined) {
      const file = args[i + 1];
      if (file) findings.push(...optional(targetFinding(`\`find ${t} ${file.text}\``, file, 'truncate', ctx)));
      i += own(FIND_ACTIONS.output, t)!;
    }
  }
  findings.push(readOnly('`find` only lists files', 'find'));
  return findings;
}

function findExecEnd(args: readonly Word[], from: number): number {
  for (let j = from; j < args.length; j++) {
    const t = args[j]!.text;
    if (t === ';' || (t === '+' && j > from && args[j - 1]!.text === '{}')) return j;
  }
  return -1;
}

function classifyGit(args: readonly Word[], ctx: Ctx): Finding[] {
  const findings: Finding[] = [];
  let elsewhere = ctx.elsewhere;
  let i = 0;
  while (i < args.length) {
    const w = args[i]!;
    if (mayBeOption(w)) return [...findings, destructive(`\`git\` is given \`${w.text}\`, only known when it runs`)];
    if (!w.text.startsWith('-')) break;
    const eq = w.text.indexOf('=');
    const option = eq < 0 ? w.text : w.text.slice(0, eq);
    const attached = eq < 0 ? undefined : { ...w, text: w.text.slice(eq + 1) };
    if (option === '--exec-path' && attached)
      return [...findings, destructive('`git --exec-path=DIR` makes git run programs from DIR')];
    if (includes(GIT_GLOBAL_OPTIONS.flags, option) && !attached) {
      i++;
      continue;
    }
    const isConfig = option === '-c' || option === '--config-env';
    if (!isConfig && !includes(GIT_GLOBAL_OPTIONS.withValue, option)) {
      return [...findings, unparseable(`\`git ${w.text}\` is an option tole does not know`)];
    }
    const value = attached ?? args[i + 1];
    if (value === undefined) return [...findings, unparseable(`\`git ${option}\` has no value`)];
    if (isConfig) findings.push(...gitConfigFindings(value));
    else elsewhere ||= option === '-C' || option === '--git-dir' || option === '--work-tree';
    i += attached ? 1 : 2;
  }
  const sub = args[i];
  if (!sub) return [...findings, readOnly('`git` alone only prints help', 'git')];
  if (isDynamic(sub))
    return [...findings, destructive(`\`git\` runs a subcommand only known when it runs (\`${sub.text}\`)`)];
  const rule = own(GIT_SUBCOMMANDS, sub.text) ?? {
    risk: 'Write',
    reason: `\`git ${sub.text}\` is not a git command tole knows to be read-only`,
  };
  return [...findings, ...applyRule(`git ${sub.text}`, rule, args.slice(i + 1), { ...ctx, elsewhere })];
}

function isSafeGitConfigKey(key: string): boolean {
  const lower = key.toLowerCase();
  return GIT_GLOBAL_OPTIONS.safeConfigKeys.some((k) => (k.endsWith('.') ? lower.startsWith(k) : lower === k));
}

function gitConfigFindings(value: Word): Finding[] {
  if (value.expands) return [destructive(`\`git -c ${value.text}\` sets configuration only known when it runs`)];
  const key = value.text.split('=')[0]!;
  return isSafeGitConfigKey(key)
    ? []
    : [destructive(`\`git -c ${key}\` can make git run a program named on the command line`)];
}

/** `git config alias.x '!rm -rf x'`: the value of a key that names a program is a command line. */
function gitConfigValueFindings(parsed: ParsedArgs, ctx: Ctx): Finding[] {
  const positionals = parsed.positionals[0]?.text === 'set' ? parsed.positionals.slice(1) : parsed.positionals;
  const [key, value] = positionals;
  if (!key || !value || isSafeGitConfigKey(key.text)) return [];
  return classifyCommandString({ ...value, text: value.text.replace(/^!/, '') }, ctx, `git config ${key.text}`);
}

function classifySed(args: readonly Word[]): Finding[] {
  const parsed = splitArgs(args, SED_RULES.valueOptions);
  const known = [...SED_RULES.flags, ...SED_RULES.scriptOptions, '-l', '--line-length'];
  const inPlace = parsed.options.some((o) => flagMatches(o.name, SED_RULES.inPlace));
  const scriptWords = parsed.options.filter((o) => optionIs(o.name, SED_RULES.scriptOptions)).map((o) => o.value);
  if (scriptWords.length === 0) scriptWords.push(parsed.positionals[0]);
  const checkable =
    parsed.dynamic.length === 0 &&
    parsed.options.every((o) => includes(known, o.name) || flagMatches(o.name, SED_RULES.inPlace));
  const sandboxed = parsed.options.some((o) => o.name === '--sandbox');
  const safeScripts = scriptWords.every((w) => w !== undefined && !w.expands && isSafeSedScript(w.text));
  if (!checkable || !(sandboxed || safeScripts)) {
    return [opaqueWrite('the `sed` script is not a plain print or substitute, so it may write files or run commands')];
  }
  return [inPlace ? opaqueWrite('`sed -i` edits files in place') : readOnly('`sed` only reads', 'sed')];
}

function isSafeSedScript(script: string): boolean {
  return script.split(/[;\n]/).every((command) => command.trim() === '' || SED_RULES.safeCommand.test(command));
}

function classifyAwk(name: string, args: readonly Word[]): Finding[] {
  const parsed = splitArgs(args, AWK_RULES.valueOptions);
  const program = parsed.positionals[0];
  const safe =
    parsed.dynamic.length === 0 &&
    parsed.options.every((o) => includes(AWK_RULES.valueOptions, o.name)) &&
    program !== undefined &&
    !program.expands &&
    !AWK_RULES.unsafeProgram.test(program.text);
  return [
    safe
      ? readOnly(`\`${name}\` only reads`, name)
      : opaqueWrite(`\`${name}\` programs can write files and run commands`),
  ];
}

// ---- rules ----

interface ParsedOption {
  readonly name: string;
  readonly value?: Word;
  /** Index of the word the option came from. */
  readonly index: number;
}

interface ParsedArgs {
  readonly options: ParsedOption[];
  readonly positionals: Word[];
  readonly afterDoubleDash: Word[];
  /** Words that may expand into options. */
  readonly dynamic: Word[];
  readonly all: readonly Word[];
}

/** getopt-style split: `-rf` is `-r -f`, `-ofile` and `--out=file` carry values, `--` ends options. */
function splitArgs(args: readonly Word[], valueOptions: readonly string[]): ParsedArgs {
  const parsed: ParsedArgs = { options: [], positionals: [], afterDoubleDash: [], dynamic: [], all: args };
  let ended = false;
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    const t = w.text;
    if (ended) {
      parsed.positionals.push(w);
      parsed.afterDoubleDash.push(w);
    } else if (mayBeOption(w)) {
      parsed.dynamic.push(w);
      parsed.positionals.push(w);
    } else if (t === '--') ended = true;
    else if (t.startsWith('--')) i += splitLongOption(args, i, valueOptions, parsed);
    else if (t.startsWith('-') && t.length > 1) i += splitShortOptions(args, i, valueOptions, parsed);
    else parsed.positionals.push(w);
  }
  return parsed;
}

function splitLongOption(
  args: readonly Word[],
  i: number,
  valueOptions: readonly string[],
  parsed: ParsedArgs,
): number {
  const w = args[i]!;
  const eq = w.text.indexOf('=');
  const name = eq < 0 ? w.text : w.text.slice(0, eq);
  if (eq >= 0) {
    parsed.options.push({ name, value: { ...w, text: w.text.slice(eq + 1) }, index: i });
    return 0;
  }
  const takesValue = optionIs(name, valueOptions) && i + 1 < args.length;
  parsed.options.push({ name, value: takesValue ? args[i + 1] : undefined, index: i });
  return takesValue ? 1 : 0;
}

function splitShortOptions(
  args: readonly Word[],
  i: number,
  valueOptions: readonly string[],
  parsed: ParsedArgs,
): number {
  const w = args[i]!;
  if (includes(valueOptions, w.text)) {
    parsed.options.push({ name: w.text, value: args[i + 1], index: i });
    return args[i + 1] ? 1 : 0;
  }
  for (let j = 1; j < w.text.length; j++) {
    const name = `-${w.text[j]}`;
    if (!includes(valueOptions, name)) {
      parsed.options.push({ name, index: i });
      continue;
    }
    const attached = w.text.slice(j + 1);
    parsed.options.push({ name, value: attached ? { ...w, text: attached } : args[i + 1], index: i });
    return attached || !args[i + 1] ? 0 : 1;
  }
  return 0;
}

/** Exact, or an unambiguous-looking abbreviation of a long option (`--forc` for `--force`). */
function optionIs(name: string, list: readonly string[]): boolean {
  return list.some(
    (option) => option === name || (name.startsWith('--') && name.length > 2 && option.startsWith(name)),
  );
}

function flagMatches(name: string, flag: { readonly short?: string; readonly long?: readonly string[] }): boolean {
  if (flag.short && /^-[^-]$/.test(name) && flag.short.includes(name[1]!)) return true;
  return name.startsWith('--') && flag.long !== undefined && optionIs(name, flag.long);
}

function textMatches(
  text: string,
  p: { readonly equals?: readonly string[]; readonly prefix?: readonly string[] },
): boolean {
  return (p.equals ?? []).includes(text) || (p.prefix ?? []).some((prefix) => text.startsWith(prefix));
}

function matches(p: ArgPattern, parsed: ParsedArgs, ctx: Ctx): boolean {
  switch (p.kind) {
    case 'flag':
      return parsed.options.some((o) => flagMatches(o.name, p));
    case 'missingFlag':
      return !parsed.options.some((o) => flagMatches(o.name, p));
    case 'arg':
      return parsed.all.some((w) => textMatches(w.text, p));
    case 'positional':
      return parsed.positionals.some((w) => textMatches(w.text, p));
    case 'optionValue':
      return parsed.options.some(
        (o) =>
          optionIs(o.name, p.options) &&
          o.value !== undefined &&
          p.values.some((v) => v.toLowerCase() === o.value!.text.toLowerCase()),
      );
    case 'afterDoubleDash':
      return parsed.afterDoubleDash.length > 0;
    case 'existingPath':
      return parsed.positionals.some((w) => !isDynamic(w) && (w.text === '.' || pathExists(ctx, w.text)));
    case 'positionals':
      return parsed.positionals.length >= p.min;
    case 'text':
      return (
        parsed.all.some((w) => p.pattern.test(w.text)) || (ctx.stdin.kind === 'text' && p.pattern.test(ctx.stdin.text))
      );
    case 'unseenStdin':
      return ctx.stdin.kind === 'pipe' || ctx.stdin.kind === 'file';
  }
}

function matchesListForm(form: ListForm, parsed: ParsedArgs): boolean {
  if (parsed.dynamic.length > 0) return false;
  if (form.options && !parsed.options.every((o) => form.options!.includes(o.name))) return false;
  if (form.requires && !parsed.options.some((o) => form.requires!.includes(o.name))) return false;
  return form.maxPositionals === undefined || parsed.positionals.length <= form.maxPositionals;
}

function applyRule(label: string, rule: CommandRule, args: readonly Word[], ctx: Ctx): Finding[] {
  if (rule.subcommands || rule.bare) return applySubcommand(label, rule, args, ctx);
  const parsed = splitArgs(args, rule.valueOptions ?? []);
  const findings: Finding[] = [];
  for (const p of rule.raise ?? []) if (matches(p.when, parsed, ctx)) findings.push({ risk: p.risk, reason: p.reason });
  findings.push(...outputFindings(label, rule, parsed, ctx));
  for (const o of parsed.options) {
    if (o.value && optionIs(o.name, rule.commandOptions ?? []))
      findings.push(...classifyCommandString(o.value, ctx, `${label} ${o.name}`));
    if (o.value && optionIs(o.name, rule.configOptions ?? [])) findings.push(...gitConfigFindings(o.value));
  }
  if (rule.runsArguments && parsed.positionals.length > 0) {
    findings.push(...classifyJoined(label, args.slice(args.indexOf(parsed.positionals[0]!)), ctx));
  }
  if (rule.configValues) findings.push(...gitConfigValueFindings(parsed, ctx));
  if (rule.overwrites) findings.push(...destinationFindings(label, rule.overwrites, parsed, ctx));
  if (rule.changesDirectory) ctx.state.cwdUnknown = true;
  const listForm = rule.readOnlyWhen?.some((form) => matchesListForm(form, parsed)) ?? false;
  if (listForm || rule.risk === 'ReadOnly')
    findings.push(readOnly(listForm ? `\`${label}\` only reads` : rule.reason, label));
  else
    findings.push({
      risk: rule.risk,
      reason: rule.reason,
      ...(rule.opaque && rule.risk === 'Write' ? { opaque: true as const } : {}),
    });
  findings.push(...dynamicArgumentFindings(label, rule, parsed));
  return findings;
}

function applySubcommand(label: string, rule: CommandRule, args: readonly Word[], ctx: Ctx): Finding[] {
  const parsed = splitArgs(args, rule.valueOptions ?? []);
  const sub = parsed.positionals[0];
  const self: CommandRule = { risk: rule.risk, reason: rule.reason };
  if (!sub) return applyRule(label, rule.bare ?? self, args, ctx);
  if (isDynamic(sub)) return [destructive(`\`${label}\` runs a subcommand only known when it runs (\`${sub.text}\`)`)];
  const index = args.indexOf(sub);
  const findings: Finding[] = [];
  const unknownOption = parsed.options.find(
    (o) => o.index < index && !includes(rule.globalFlags ?? [], o.name) && !includes(rule.valueOptions ?? [], o.name),
  );
  if (unknownOption && rule.globalFlags)
    findings.push(write(`\`${label} ${unknownOption.name}\` is an option tole does not know`));
  const subRule = own(rule.subcommands ?? {}, sub.text) ??
    rule.otherSubcommand ?? { risk: 'Write', reason: UNKNOWN_COMMAND_REASON(`${label} ${sub.text}`) };
  return [...findings, ...applyRule(`${label} ${sub.text}`, subRule, args.slice(index + 1), ctx)];
}

/** A rule that reacts to some arguments cannot be trusted with an argument nobody can see yet. */
function dynamicArgumentFindings(label: string, rule: CommandRule, parsed: ParsedArgs): Finding[] {
  const unknown = parsed.dynamic[0];
  if (!unknown) return [];
  const risks: Risk[] = (rule.raise ?? []).map((p) => p.risk);
  if (rule.outputOptions || rule.commandOptions || rule.overwrites) risks.push('Destructive');
  const ceiling = risks.reduce<Risk | undefined>(
    (a, b) => (a === undefined || RISK_ORDER[b] > RISK_ORDER[a] ? b : a),
    undefined,
  );
  if (ceiling === undefined || ceiling === 'ReadOnly') return [];
  return [
    {
      risk: ceiling,
      reason: `\`${label}\` is given \`${unknown.text}\`, only known when it runs, which could change what it does`,
    },
  ];
}

function outputFindings(label: string, rule: CommandRule, parsed: ParsedArgs, ctx: Ctx): Finding[] {
  const findings: Finding[] = [];
  for (const o of parsed.options) {
    if (!o.value || o.value.text === '-' || !optionIs(o.name, rule.outputOptions ?? [])) continue;
    findings.push(...optional(targetFinding(`\`${label} ${o.name} ${o.value.text}\``, o.value, 'truncate', ctx)));
  }
  if (rule.outputFrom === undefined) return findings;
  const append = parsed.options.some((o) => optionIs(o.name, rule.appendOptions ?? []));
  for (const w of parsed.positionals.slice(rule.outputFrom)) {
    findings.push(...optional(targetFinding(`\`${label} ${w.text}\``, w, append ? 'append' : 'truncate', ctx)));
  }
  return findings;
}

/** mv / cp / ln / install: Destructive when the path they write already exists. */
function destinationFindings(label: string, spec: OverwriteSpec, parsed: ParsedArgs, ctx: Ctx): Finding[] {
  if (spec.onlyWith && !matches(spec.onlyWith, parsed, ctx)) return [];
  const safe = parsed.options.some(
    (o) => optionIs(o.name, spec.safeOptions) || includes(spec.safeOptions, `${o.name}=${o.value?.text}`),
  );
  if (safe) return [];
  const directory = parsed.options.find((o) => optionIs(o.name, spec.targetDirectoryOptions));
  let targets: Word[];
  if (directory) {
    if (!directory.value) return [];
    targets = parsed.positionals.map((source) => intoDirectory(directory.value!, source));
  } else {
    if (parsed.positionals.length < 2) return [];
    const destination = parsed.positionals[parsed.positionals.length - 1]!;
    const sources = parsed.positionals.slice(0, -1);
    const isDir = !isDynamic(destination) && (destination.text.endsWith('/') || pathIsDirectory(ctx, destination.text));
    targets = isDir ? sources.map((source) => intoDirectory(destination, source)) : [destination];
  }
  return targets.flatMap((target) => optional(targetFinding(`\`${label}\``, target, 'replace', ctx)));
}

function intoDirectory(directory: Word, source: Word): Word {
  const text = `${directory.text.replace(/\/+$/, '')}/${basename(source.text)}`;
  return { ...literalWord(text), expands: isDynamic(directory) || isDynamic(source) };
}

// ---- unknown commands ----

/** Names after which an unknown command's arguments are checked as a command it may run. */
const MAY_RUN_DESTRUCTIVE = new Set<string>([
  ...Object.entries(COMMAND_RULES)
    .filter(([, rule]) => rule.risk === 'Destructive' || (rule.raise ?? []).some((p) => p.risk === 'Destructive'))
    .map(([name]) => name),
  ...Object.keys(WRAPPERS),
  ...SHELLS,
  'eval',
  'find',
  'git',
]);

/** The Destructive part of `text` read as a command line, if it parses and has one. */
function embeddedLine(text: string, ctx: Ctx): Finding | undefined {
  const parsed = parseShell(text, ctx.depth + 1);
  return parsed.ok ? classifyScript(parsed.script, deeper(ctx)).find((f) => f.risk === 'Destructive') : undefined;
}

/** Unknown is Write; but `setsid rm -rf x` or `ssh host 'rm -rf /'` shows what it may run. */
function classifyUnknown(name: string, words: readonly Word[], ctx: Ctx): Finding[] {
  const byPath = words[0]!.text.includes('/');
  const findings = [
    byPath
      ? opaqueWrite(`\`${words[0]!.text}\` runs a program from the workspace, whose code tole does not inspect`)
      : write(UNKNOWN_COMMAND_REASON(name)),
  ];
  let scans = 0;
  for (let i = 1; i < words.length && scans < MAX_EMBEDDED_SCANS; i++) {
    const w = words[i]!;
    if (isDynamic(w)) continue;
    const embedded = basename(w.text).toLowerCase();
    let found: Finding | undefined;
    if (MAY_RUN_DESTRUCTIVE.has(embedded) || DESTRUCTIVE_NAME_PREFIXES.some((p) => embedded.startsWith(p.prefix))) {
      scans++;
      found = classifyArgv(words.slice(i), deeper(ctx)).find((f) => f.risk === 'Destructive');
    } else if (!w.plain && /[\s;&|]/.test(w.text)) {
      scans++;
      // As written, after `KEY=` (`-o ProxyCommand=…`), after an editor's `:!` (`vim -c '!cmd'`).
      const candidates = [w.text, w.text.slice(w.text.indexOf('=') + 1), w.text.replace(/^[:!]+/, '')];
      found = candidates.map((text) => embeddedLine(text, ctx)).find((f) => f !== undefined);
    }
    if (found) return [...findings, destructive(`\`${name}\` may run \`${w.text}\`: ${found.reason}`)];
  }
  return findings;
}
