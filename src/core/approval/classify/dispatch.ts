/** One command: its name decides which classifier reads its arguments. */
import {
  AWK_RULES,
  COMMAND_RULES,
  DESTRUCTIVE_NAME_PREFIXES,
  INTERPRETERS,
  SHELLS,
  UNKNOWN_COMMAND_REASON,
  VERSION_QUERIES,
  VERSION_QUERY_ARGS,
  WRAPPERS,
} from '../command-rules';
import { literalWord, MAX_SHELL_DEPTH, type Word } from '../shell/syntax';
import type { Ctx } from './context';
import { classifyFind } from './find';
import { evaluatingBuiltinFindings } from './evaluating-builtins';
import { type Finding, destructive, readOnly, unparseable, write } from './findings';
import { classifyGit } from './git';
import { classifyKill } from './kill';
import { applyRule } from './rules';
import { classifyAwk, classifySed } from './sed-awk';
import { classifyEval, classifyInterpreter, classifyShell, classifySource } from './shells';
import { classifyUnknown } from './unknown';
import { builtinArgumentFindings, environmentFindings, isArmed, namesSet } from './variables';
import { basename, includes, isDynamic, own } from './words';
import { classifyWrapped } from './wrappers';
import { runsWrittenFile } from './written-paths';

export function classifyArgv(words: readonly Word[], ctx: Ctx): Finding[] {
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
  return [...namesSet(name, args).flatMap(environmentFindings), ...dispatchNamed(name, words, args, ctx)];
}

function dispatchNamed(name: string, words: readonly Word[], args: readonly Word[], ctx: Ctx): Finding[] {
  if (isVersionQuery(name, args, ctx)) return [readOnly(`\`${name} ${args[0]!.text}\` only prints`, name)];
  if (includes(SHELLS, name)) return classifyShell(name, args, ctx);
  if (name === 'eval') return classifyEval(args, ctx);
  if (name === 'find') return classifyFind(args, ctx);
  if (name === 'git') return classifyGit(args, ctx);
  if (name === 'kill') return classifyKill(args);
  if (name === 'sed') return classifySed(args);
  if (includes(AWK_RULES.names, name)) return classifyAwk(name, args);
  if (name === 'source' || name === '.') return classifySource(name, args, ctx);
  const prefix = DESTRUCTIVE_NAME_PREFIXES.find((p) => name.startsWith(p.prefix));
  if (prefix) return [destructive(prefix.reason)];
  if (includes(INTERPRETERS, name)) return classifyInterpreter(name, args, ctx);
  const rule = own(COMMAND_RULES, name);
  if (storesArmedText(name, ctx))
    return [
      destructive(
        `\`${name}\` stores text holding \`$(…)\` or a backtick, a command bash runs if it ever evaluates the variable`,
      ),
    ];
  if (rule)
    return [
      ...builtinArgumentFindings(name, args, ctx),
      ...evaluatingBuiltinFindings(name, args),
      ...applyRule(name, rule, args, ctx),
    ];
  return classifyUnknown(name, words, ctx);
}

/** `read x <<< '$(cmd)'`, however it is reached (`command read`, `builtin read`). */
function storesArmedText(name: string, ctx: Ctx): boolean {
  if (name !== 'read' && name !== 'mapfile' && name !== 'readarray') return false;
  return ctx.stdin.kind === 'text' && !ctx.stdin.expands && isArmed(literalWord(ctx.stdin.text));
}

function isVersionQuery(name: string, args: readonly Word[], ctx: Ctx): boolean {
  const extra = own(VERSION_QUERIES, name);
  if (!extra || args.length !== 1 || isDynamic(args[0]!) || ctx.stdin.kind === 'pipe') return false;
  return includes(VERSION_QUERY_ARGS, args[0]!.text) || extra.includes(args[0]!.text);
}
