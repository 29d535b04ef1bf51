/** `git`: global options, then the subcommand's rule. */
import { GIT_GLOBAL_OPTIONS, GIT_SUBCOMMANDS } from '../command-rules';
import type { Word } from '../shell/syntax';
import type { Ctx } from './context';
import { type Finding, destructive, opaqueWrite, readOnly, unparseable } from './findings';
import { gitConfigFindings } from './git-config';
import { applyRule } from './rules';
import { includes, isDynamic, mayBeOption, own } from './words';

/** The repository's own config may name programs git runs (`core.fsmonitor`, hooks, filters). */
function otherRepository(what: string): Finding {
  return opaqueWrite(
    `${what} may act on a repository other than the workspace's own, whose config can make git run programs`,
  );
}

function isWorkspaceItself(w: Word): boolean {
  return !isDynamic(w) && /^\.\/*$/.test(w.text);
}

export function classifyGit(args: readonly Word[], ctx: Ctx): Finding[] {
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
    else if (includes(GIT_GLOBAL_OPTIONS.otherRepository, option) && !(option === '-C' && isWorkspaceItself(value))) {
      elsewhere = true;
      findings.push(otherRepository(`\`git ${option} ${value.text}\``));
    }
    i += attached ? 1 : 2;
  }
  if (ctx.state.cwdUnknown) findings.push(otherRepository('`git` after a `cd`'));
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
