/** `sed` and `awk`: read-only only when their scripts are plain prints and substitutions. */
import { AWK_RULES, SED_RULES } from '../command-rules';
import type { Word } from '../shell/syntax';
import { flagMatches, optionIs, splitArgs } from './arg-split';
import { type Finding, opaqueWrite, readOnly } from './findings';
import { includes } from './words';

export function classifySed(args: readonly Word[]): Finding[] {
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

export function classifyAwk(name: string, args: readonly Word[]): Finding[] {
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
