/** Shells, `eval`, interpreters and `source`: the code they run, from arguments, files or stdin. */
import { INTERPRETER_CODE_OPTIONS, OPAQUE_SCRIPT_PREFIXES, SHELL_OPTIONS, STDIN_SCRIPT_PATHS } from '../command-rules';
import type { Word } from '../shell/syntax';
import { classifyCommandString } from './command-strings';
import { type Ctx, deeper } from './context';
import { type Finding, destructive, opaqueWrite, readOnly, unparseable, write } from './findings';
import { scriptDownloads } from './script';
import { includes, isDynamic, mayBeOption } from './words';
import { runsWrittenFile } from './written-paths';

export function classifyShell(name: string, args: readonly Word[], ctx: Ctx): Finding[] {
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
    return [
      ...findings,
      ...dialectFindings(name, rest[0]!.text),
      ...classifyCommandString(rest[0]!, ctx, `${name} -c`),
    ];
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
      return [
        write(`\`${name}\` runs commands fed on its stdin`),
        ...dialectFindings(name, stdin.text),
        ...ctx.walk.line(stdin.text, deeper(ctx, { kind: 'terminal' })),
      ];
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

/** Shells that read POSIX sh: bash's reading of their code differs only where bash adds quoting or `((`. */
const POSIX_SHELLS = ['sh', 'dash', 'ash'];
/**
 * tole reads every shell's code as bash. For another shell that holds only where the two read the
 * text alike: dash (Debian's sh) has no `$'…'` or `$"…"` quoting, so `$'a\'` ends where bash goes
 * on, and text bash keeps inside one string runs as commands there; `((cmd))` is two subshells
 * running cmd, not arithmetic. zsh, ksh, mksh and fish have syntax of their own (fish's `'\''`,
 * zsh's glob qualifiers), so their code is never proved read-only.
 */
function dialectFindings(name: string, text: string): Finding[] {
  if (name === 'bash' || name === 'rbash') return [];
  if (!POSIX_SHELLS.includes(name))
    return [opaqueWrite(`\`${name}\` reads its code by rules of its own, and tole reads shell code as bash`)];
  if (/\$['"]|\(\(/.test(text))
    return [
      opaqueWrite(`\`${name}\` reads \`$'…'\`, \`$"…"\` and \`((\` otherwise than bash, whose reading tole checked`),
    ];
  return [];
}

export function classifyEval(args: readonly Word[], ctx: Ctx): Finding[] {
  if (args.length === 0) return [readOnly('`eval` alone does nothing', 'eval')];
  if (args.some((w) => w.expands)) return [destructive('`eval` runs text only known when it runs')];
  return ctx.walk.line(args.map((w) => w.text).join(' '), deeper(ctx));
}

export function classifyInterpreter(name: string, args: readonly Word[], ctx: Ctx): Finding[] {
  const code = args.some((w) => includes(INTERPRETER_CODE_OPTIONS, w.text) || /^-[A-Za-z]*[ceE]$/.test(w.text));
  const script = args.find((w) => !w.text.startsWith('-') || w.text === '-');
  if (!code && (script === undefined || script.text === '-')) return classifyStdinCode(name, ctx, false);
  if (!code && script) return scriptFindings(name, script, ctx, false);
  return [opaqueWrite(`\`${name}\` runs code tole does not inspect`)];
}

export function classifySource(name: string, args: readonly Word[], ctx: Ctx): Finding[] {
  const script = args[0];
  if (script) return scriptFindings(name, script, ctx, true);
  return [opaqueWrite(`\`${name}\` runs a script whose commands tole does not inspect`)];
}
