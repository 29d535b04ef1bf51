/** Lines, pipelines, commands and their redirections: the walk over a parsed line, and what stdin each command gets. */
import { DOWNLOADERS } from '../command-rules';
import { parseShell } from '../shell/parser';
import type { Command, Redirect, Script, SimpleCommand, Word } from '../shell/syntax';
import type { Ctx, Stdin } from './context';
import { type Finding, destructive, opaqueWrite, readOnly, unparseable } from './findings';
import { outsideFindings } from './outside-paths';
import { wordFindings } from './inert-words';
import { lineValues, recordDefinitions } from './known-values';
import { classifyAssignment } from './variables';
import { basename, includes } from './words';
import { targetFinding } from './written-paths';

export function classifyLine(line: string, ctx: Ctx): Finding[] {
  const parsed = parseShell(line, ctx.depth);
  if (!parsed.ok) return [unparseable(parsed.error)];
  if (ctx.depth > 0 || ctx.state.values !== undefined) return classifyScript(parsed.script, { ...ctx, top: false });
  ctx.state.values = lineValues(parsed.script);
  return classifyScript(parsed.script, { ...ctx, top: true });
}

export function classifyScript(script: Script, ctx: Ctx): Finding[] {
  const findings: Finding[] = [];
  for (const pipeline of script.pipelines) {
    let stdin: Stdin = script.fedByPipe ? { kind: 'pipe', download: false } : ctx.stdin;
    let download = false;
    const defines = ctx.top === true && pipeline.sure === true && pipeline.commands.length === 1;
    for (const command of pipeline.commands) {
      findings.push(...classifyNode(command, { ...ctx, stdin, top: false, defines }));
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

export function scriptDownloads(script: Script): boolean {
  return script.pipelines.some((p) => p.commands.some(downloads));
}

/**
 * Commands that never open a path their arguments name (they print them, compare them, or name
 * variables): a value only known when it runs is harmless there. Redirections still count.
 */
const NEVER_OPEN_ARGUMENTS = [
  'echo',
  'printf',
  ':',
  '((',
  'true',
  'false',
  'test',
  '[',
  '[[',
  'for',
  'export',
  'declare',
  'typeset',
  'local',
  'readonly',
  'read',
  'unset',
  'shift',
];

function classifySimple(command: SimpleCommand, ctx: Ctx): Finding[] {
  const inner: Ctx = { ...ctx, stdin: stdinOf(command.redirects, ctx.stdin) };
  const findings: Finding[] = [];
  for (const a of command.assignments) findings.push(...classifyAssignment(a.name, a.value, inner));
  for (const w of command.words) findings.push(...classifySubstitutions(w, inner));
  for (const r of command.redirects) findings.push(...classifyRedirect(r, inner));
  const opens = !includes(NEVER_OPEN_ARGUMENTS, command.words[0]?.plain ? command.words[0].text : '');
  for (const w of command.assignments.map((a) => a.value)) findings.push(...wordFindings(w, inner, false));
  for (const w of command.words) findings.push(...wordFindings(w, inner, opens));
  // A here-string's word is text fed to stdin, never a path opened.
  for (const r of command.redirects) findings.push(...wordFindings(r.target, inner, r.op !== '<<<'));
  const name = command.words[0]?.plain ? basename(command.words[0].text) : '';
  const targets = command.redirects.filter((r) => r.op !== '<<<' && !r.heredoc).map((r) => r.target);
  findings.push(...outsideFindings(name, opens ? command.words.slice(1) : [], targets, inner));
  if (ctx.defines === true) recordDefinitions(command, ctx.state.values, ctx.depth);
  if (command.redirects.some((r) => r.heredoc?.evaluates))
    findings.push(opaqueWrite('a heredoc makes bash evaluate text as arithmetic, a name or a prompt'));
  if (command.words.length > 0) findings.push(...ctx.walk.argv(command.words, inner));
  if (command.assignments.length > 0) findings.push(readOnly('it only sets shell variables', 'VAR=value'));
  return findings;
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

export function classifySubstitutions(w: Word, ctx: Ctx): Finding[] {
  return w.substitutions.flatMap((script) => classifyScript(script, ctx));
}

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
