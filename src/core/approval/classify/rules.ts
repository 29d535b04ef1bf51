/** Applying a command rule from command-rules.ts to parsed arguments. */
import {
  type ArgPattern,
  type CommandRule,
  type ListForm,
  type OverwriteSpec,
  UNKNOWN_COMMAND_REASON,
} from '../command-rules';
import { RISK_ORDER, type Risk } from '../risk';
import { type Word, literalWord } from '../shell/syntax';
import { type ParsedArgs, flagMatches, optionIs, splitArgs } from './arg-split';
import { classifyCommandString, classifyJoined } from './command-strings';
import type { Ctx } from './context';
import { type Finding, destructive, optional, readOnly, write } from './findings';
import { gitConfigFindings, gitConfigValueFindings } from './git-config';
import { embeddedDestructive } from './unknown';
import { basename, includes, isDynamic, own } from './words';
import { pathExists, pathIsDirectory, targetFinding } from './written-paths';

function textMatches(
  text: string,
  p: { readonly equals?: readonly string[]; readonly prefix?: readonly string[] },
): boolean {
  return (p.equals ?? []).includes(text) || (p.prefix ?? []).some((prefix) => text.startsWith(prefix));
}

export function matches(p: ArgPattern, parsed: ParsedArgs, ctx: Ctx): boolean {
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
      // A value only known when it runs may be any of them.
      return parsed.options.some(
        (o) =>
          optionIs(o.name, p.options) &&
          o.value !== undefined &&
          (isDynamic(o.value) || p.values.some((v) => v.toLowerCase() === o.value!.text.toLowerCase())),
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
    case 'positionalMatches':
      return parsed.positionals.some((w) => p.pattern.test(w.text));
    case 'all':
      return p.of.every((q) => matches(q, parsed, ctx));
  }
}

function matchesListForm(form: ListForm, parsed: ParsedArgs): boolean {
  if (parsed.dynamic.length > 0) return false;
  if (form.options && !parsed.options.every((o) => form.options!.includes(o.name))) return false;
  if (form.requires && !parsed.options.some((o) => form.requires!.includes(o.name))) return false;
  return form.maxPositionals === undefined || parsed.positionals.length <= form.maxPositionals;
}

export function applyRule(label: string, rule: CommandRule, args: readonly Word[], ctx: Ctx): Finding[] {
  if (rule.subcommands || rule.bare) return applySubcommand(label, rule, args, ctx);
  const parsed = splitArgs(args, rule.valueOptions ?? []);
  const findings: Finding[] = [];
  for (const p of rule.raise ?? []) if (matches(p.when, parsed, ctx)) findings.push({ risk: p.risk, reason: p.reason });
  findings.push(...outputFindings(label, rule, parsed, ctx));
  for (const o of parsed.options) {
    if (o.value && optionIs(o.name, rule.commandOptions ?? [])) {
      const command = { ...o.value, text: o.value.text.replace(/^exec=/, '') };
      findings.push(...classifyCommandString(command, ctx, `${label} ${o.name}`));
    }
    if (o.value && optionIs(o.name, rule.configOptions ?? [])) findings.push(...gitConfigFindings(o.value));
  }
  if (rule.runsArguments && parsed.positionals.length > 0) {
    findings.push(...classifyJoined(label, args.slice(args.indexOf(parsed.positionals[0]!)), ctx));
  }
  if (rule.configValues) findings.push(...gitConfigValueFindings(parsed, ctx));
  if (rule.mayRunArguments) findings.push(...optional(embeddedDestructive(label, args, ctx)));
  if (rule.overwrites) findings.push(...destinationFindings(label, rule.overwrites, parsed, ctx));
  if (rule.changesDirectory) {
    ctx.state.cwdUnknown = true;
    // Where `cd -`, `cd $D`, `popd` or `pushd +1` lands is only known when it runs: the root, say,
    // where `rg KEY` (no path) walks into `/proc/<pid>/environ`. Named paths are read as words.
    const landing = parsed.positionals.find((w) => w.text === '-' || w.expands || /^[+-]\d+$/.test(w.text));
    if (landing || (label === 'popd' && parsed.positionals.length === 0)) {
      findings.push(
        write(
          `\`${label}${landing ? ` ${landing.text}` : ''}\` goes where only the run knows, maybe \`/\`, whose \`/proc\` holds other processes' environments`,
        ),
      );
    }
  }
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
