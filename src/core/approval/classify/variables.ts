/** Variables: assignments that name programs or load code, and builtins (`export`, `alias`, `trap`) whose arguments are assignments or commands. */
import {
  CODE_LOADING_VARIABLES,
  CODE_LOADING_VARIABLE_PREFIXES,
  COMMAND_VARIABLES,
  DECLARING_BUILTINS,
  GIT_HARMLESS_VARIABLES,
  INERT_ENVIRONMENT_PREFIXES,
  INERT_ENVIRONMENT_VARIABLES,
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
  else if (!includes(COMMAND_VARIABLES, name) && !includes(CODE_LOADING_VARIABLES, name)) {
    findings.push(...environmentFindings(name));
  }
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

/**
 * A name programs may read from their environment (no lowercase letter, or a `*_proxy`) that tole
 * does not know to be inert: wherever the line sets it (an assignment, `export`, `read`,
 * `printf -v`, `for`), the line is at least Write. The same set-site rule closes every spelling:
 * `GCONV_PATH=. iconv`, `export GCONV_PATH=.`, `read GCONV_PATH < f; export GCONV_PATH`.
 */
export function environmentFindings(name: string): Finding[] {
  const programsRead = !/[a-z]/.test(name) || /_proxy$/i.test(name);
  if (!programsRead || name.startsWith('GIT_')) return [];
  if (includes(INERT_ENVIRONMENT_VARIABLES, name) || INERT_ENVIRONMENT_PREFIXES.some((p) => name.startsWith(p)))
    return [];
  return [
    opaqueWrite(
      `setting \`${name}\` may change what programs load or read (an environment variable tole does not know to be inert)`,
    ),
  ];
}

const NAME = /^([A-Za-z_][A-Za-z0-9_]*)(?:\+?=|\[|$)/;
/** `${X:=v}` and `${X=v}` set X while expanding. */
const ASSIGNING_EXPANSION = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?:\[[^\]]*\])?:?=/g;

/**
 * The names a command sets other than by `NAME=value` (which classifyAssignment reads): `read A`,
 * `mapfile A`, `printf -v A`, `export A`, `declare A`, `for A in`, `select A`, `getopts o A`,
 * `wait -p A`, `${A:=v}` in any word. Read loosely (any word that could be a name counts), so a
 * name is never missed.
 */
export function namesSet(name: string, args: readonly Word[]): string[] {
  const names: string[] = [];
  const nameOf = (w: Word | undefined) => {
    const m = w ? NAME.exec(w.text) : null;
    if (m) names.push(m[1]!);
  };
  for (const w of args) for (const m of w.text.matchAll(ASSIGNING_EXPANSION)) names.push(m[1]!);
  // `declare -p X`, `export -p`, `declare -f name` only print.
  const prints = includes(DECLARING_BUILTINS, name) && args.some((w) => /^-[A-Za-z]*[pfF]/.test(w.text));
  if (['read', 'mapfile', 'readarray', 'getopts', ...DECLARING_BUILTINS].includes(name) && !prints)
    args.forEach(nameOf);
  if (name === 'for' || name === 'select') nameOf(args[0]);
  if (name === 'printf' || name === 'wait') {
    args.forEach((w, i) => {
      if (w.text === '-v' || w.text === '-p') nameOf(args[i + 1]);
      else if (/^-[vp]./.test(w.text)) nameOf({ ...w, text: w.text.slice(2) });
    });
  }
  return names;
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
    // tole reads each later word as written, but where aliases are expanded (sh and dash always,
    // bash in POSIX mode or with expand_aliases) `alias echo=eval` makes `echo 'cmd'` run cmd.
    const defines = args.some((w) => w.text.indexOf('=') > 0 || w.expands);
    return [
      ...(defines ? [opaqueWrite('`alias` changes what a later command name runs, which tole reads as written')] : []),
      ...args.flatMap((w) => {
        const eq = w.text.indexOf('=');
        return eq > 0 ? classifyCommandString({ ...w, text: w.text.slice(eq + 1) }, ctx, 'alias') : [];
      }),
    ];
  }
  if (name === 'trap' && args.length > 1 && !args[0]!.text.startsWith('-'))
    return classifyCommandString(args[0]!, ctx, 'trap');
  return [];
}
