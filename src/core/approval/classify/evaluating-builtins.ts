/**
 * Builtins that evaluate their arguments as arithmetic or as variable names with subscripts:
 * `let`, `[[ x -gt 0 ]]`, `test -v`, `declare -i`, `printf -v`, `read`, `wait -p`, `unset`. Bash evaluates a
 * name by evaluating its value, so `x='a[$(cmd)]'; (( x ))` runs cmd: only literal numbers and
 * plain names are inert.
 */
import { isLiteralArithmetic } from '../shell/arithmetic';
import type { Word } from '../shell/syntax';
import { type Finding, opaqueWrite } from './findings';

const ARITHMETIC_TESTS = new Set(['-eq', '-ne', '-lt', '-le', '-gt', '-ge']);
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

const isNumber = (w: Word | undefined): boolean => w !== undefined && !w.expands && /^\s*-?\d+\s*$/.test(w.text);
const isName = (w: Word | undefined): boolean => w !== undefined && !w.expands && IDENTIFIER.test(w.text);

function evaluates(name: string, what: string): Finding {
  return opaqueWrite(`\`${name}\` evaluates ${what}, and a value like \`a[$(cmd)]\` there runs cmd`);
}

export function evaluatingBuiltinFindings(name: string, args: readonly Word[]): Finding[] {
  switch (name) {
    case 'let':
      return args.every((w) => !w.expands && isLiteralArithmetic(w.text)) ? [] : [evaluates('let', 'arithmetic')];
    case '[[':
      return doubleBracketFindings(args);
    case 'test':
    case '[':
      return args.some((w, i) => w.text === '-v' && !isName(args[i + 1])) ? [evaluates(name, 'the name after -v')] : [];
    case 'declare':
    case 'typeset':
    case 'local':
      return declarationFindings(name, args);
    case 'printf':
      return printfFindings(args);
    case 'read':
      return readFindings(args);
    case 'wait':
      return waitFindings(args);
    case 'unset':
      return args.some((w) => w.expands || w.text.includes('[')) ? [evaluates('unset', 'an array subscript')] : [];
    default:
      return [];
  }
}

function doubleBracketFindings(args: readonly Word[]): Finding[] {
  for (let i = 0; i < args.length; i++) {
    const t = args[i]!.text;
    if (ARITHMETIC_TESTS.has(t) && !(isNumber(args[i - 1]) && isNumber(args[i + 1])))
      return [evaluates('[[', `both sides of \`${t}\` as arithmetic`)];
    if ((t === '-v' || t === '-R') && !isName(args[i + 1])) return [evaluates('[[', `the name after \`${t}\``)];
  }
  return [];
}

/** `declare -i`, `-n`, `-a`, `-A`, or a name only known when it runs. */
function declarationFindings(name: string, args: readonly Word[]): Finding[] {
  for (const w of args) {
    if (/^[-+][A-Za-z]+$/.test(w.text) && !w.expands) {
      if (/[inaA]/.test(w.text)) return [evaluates(name, `the values of \`${w.text}\` variables`)];
      continue;
    }
    const eq = w.text.indexOf('=');
    const target = eq < 0 ? w.text : w.text.slice(0, eq).replace(/\+$/, '');
    if (!IDENTIFIER.test(target)) return [evaluates(name, `the name \`${target}\``)];
  }
  return [];
}

function printfFindings(args: readonly Word[]): Finding[] {
  const first = args[0];
  if (!first || first.expands) return first ? [evaluates('printf', 'options only known when it runs')] : [];
  if (first.text === '-v') return isName(args[1]) ? [] : [evaluates('printf -v', 'the name it assigns')];
  if (first.text.startsWith('-v'))
    return IDENTIFIER.test(first.text.slice(2)) ? [] : [evaluates('printf -v', 'the name it assigns')];
  return [];
}

const READ_VALUE_OPTIONS = 'dinNptu';

function readFindings(args: readonly Word[]): Finding[] {
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    if (w.text.startsWith('-') && w.text.length > 1 && !w.expands) {
      if (w.text.includes('a')) return [evaluates('read -a', 'the array it fills')];
      const last = w.text[w.text.length - 1]!;
      if (READ_VALUE_OPTIONS.includes(last)) i++;
      continue;
    }
    if (!isName(w)) return [evaluates('read', `the name \`${w.text}\``)];
  }
  return [];
}

/** The last background job's id, the one word `wait` is commonly given that expands. */
const LAST_JOB = new Set(['$!', '"$!"', '${!}', '"${!}"']);

/**
 * `wait -p NAME` (bash 5.1) assigns the finished job's id to NAME, evaluating a subscript in it:
 * `sleep 0 & wait -n -p 'a[$(cmd)]'` runs cmd. The value follows `p` in any cluster (`-np NAME`,
 * `-pNAME`); a word only known when it runs (but `$!`) may be `-pa[$(cmd)]` read from a file.
 */
function waitFindings(args: readonly Word[]): Finding[] {
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    if (w.expands) {
      if (LAST_JOB.has(w.text)) continue;
      return [evaluates('wait', `\`${w.text}\`, only known when it runs, which may be \`-p NAME\``)];
    }
    if (w.text === '--') return [];
    if (!w.text.startsWith('-') || w.text.length < 2) continue;
    const at = w.text.indexOf('p');
    if (at < 0) continue;
    const attached = w.text.slice(at + 1);
    const name = attached === '' ? args[i + 1] : { ...w, text: attached };
    if (!isName(name)) return [evaluates('wait -p', 'the name it assigns')];
    if (attached === '') i++;
  }
  return [];
}
