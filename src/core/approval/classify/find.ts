/** `find`: its `-delete`, `-exec` and output actions. */
import { FIND_ACTIONS } from '../command-rules';
import type { Word } from '../shell/syntax';
import { type Ctx, deeper } from './context';
import { type Finding, destructive, optional, readOnly, unparseable } from './findings';
import { includes, mayBeOption, own } from './words';
import { targetFinding } from './written-paths';

export function classifyFind(args: readonly Word[], ctx: Ctx): Finding[] {
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
      if (t === '-execdir' || t === '-okdir') ctx.state.cwdUnknown = true;
      if (end <= i + 1) return [...findings, unparseable(`\`find ${t}\` has no command ending in \`;\` or \`+\``)];
      // `{}` becomes a file name, only known when find runs (and a name can hold anything).
      const command = args
        .slice(i + 1, end)
        .map((word) => (word.text.includes('{}') ? { ...word, expands: true } : word));
      findings.push(...ctx.walk.argv(command, deeper(ctx, { kind: 'terminal' })));
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
