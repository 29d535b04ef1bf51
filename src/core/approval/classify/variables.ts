/** Variables: assignments that name programs or load code, and builtins (`export`, `alias`, `trap`) whose arguments are assignments or commands. */
import {
  CODE_LOADING_VARIABLES,
  CODE_LOADING_VARIABLE_PREFIXES,
  COMMAND_VARIABLES,
  DECLARING_BUILTINS,
  GIT_HARMLESS_VARIABLES,
} from '../command-rules';
import type { Word } from '../shell/syntax';
import { classifyCommandString } from './command-strings';
import { type Ctx, deeper } from './context';
import { type Finding, destructive, opaqueWrite, write } from './findings';
import { includes } from './words';

export function classifyAssignment(name: string, value: Word, ctx: Ctx): Finding[] {
  const findings = ctx.walk.substitutions(value, ctx);
  if (includes(COMMAND_VARIABLES, name)) {
    if (value.expands) findings.push(destructive(`\`${name}\` is set to a program only known when it runs`));
    else if (value.text.trim() !== '') findings.push(...ctx.walk.line(value.text, deeper(ctx, { kind: 'terminal' })));
  }
  if (includes(CODE_LOADING_VARIABLES, name) || CODE_LOADING_VARIABLE_PREFIXES.some((p) => name.startsWith(p))) {
    findings.push(destructive(`setting \`${name}\` makes programs load code tole cannot inspect`));
  }
  if (name === 'PATH') findings.push(write('setting `PATH` changes which programs run'));
  if (name.startsWith('GIT_') && !includes(GIT_HARMLESS_VARIABLES, name) && !includes(COMMAND_VARIABLES, name)) {
    findings.push(
      opaqueWrite(`setting \`${name}\` may point git at another repository, whose config can make git run programs`),
    );
  }
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
export function isArmed(value: Word): boolean {
  return value.substitutions.length === 0 && /\$\(|`/.test(value.text);
}

/** `export A=1`, `alias ls='…'`, `trap 'cmd' EXIT`: arguments that are assignments or commands. */
export function builtinArgumentFindings(name: string, args: readonly Word[], ctx: Ctx): Finding[] {
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
