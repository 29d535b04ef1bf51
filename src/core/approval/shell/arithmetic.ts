/**
 * Which expansions make bash evaluate text: arithmetic (`$((…))`, `$[…]`, array subscripts,
 * `${s:offset:length}`), indirection (`${!ref}`) and prompt expansion (`${v@P}`). Bash evaluates
 * a variable named in arithmetic by evaluating its value, subscripts included, so a value like
 * `a[$(cmd)]` runs `cmd`: only text with no name in it is proved inert.
 */

/** Digits, blanks and operators only: no name whose value bash would evaluate. */
export function isLiteralArithmetic(text: string): boolean {
  return /^[\s\d+\-*/%()<>=!&|^~?:,]*$/.test(text);
}

const NAME = /^(?:[A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])/;
/** Operators after a name that only transform the value or supply a default word. */
const INERT_OPERATOR = /^(?::?[-=+?]|##?|%%?|\/[#%/]?|\^\^?|,,?|@[QEAaUuLKk]$|$)/;

/** Whether `${inner}` makes bash evaluate text tole cannot prove literal. */
export function parameterEvaluates(inner: string): boolean {
  if (inner === '#' || /^[@*#?$!-]$/.test(inner)) return false;
  let rest = inner;
  if (rest.startsWith('!')) {
    // `${!prefix*}` and `${!a[@]}` list names or keys; any other `${!ref}` evaluates ref's value as a name.
    return !/^![A-Za-z_][A-Za-z0-9_]*(?:[@*]|\[[@*]\])$/.test(rest);
  }
  if (rest.startsWith('#') && rest.length > 1) rest = rest.slice(1);
  const name = NAME.exec(rest);
  if (!name) return true;
  rest = rest.slice(name[0].length);
  if (rest.startsWith('[')) {
    const end = rest.indexOf(']');
    if (end < 0) return true;
    const subscript = rest.slice(1, end);
    if (subscript !== '@' && subscript !== '*' && !/^\s*-?\d+\s*$/.test(subscript)) return true;
    rest = rest.slice(end + 1);
  }
  if (rest.startsWith(':') && !/^:[-=+?]/.test(rest)) return !isLiteralArithmetic(rest.slice(1));
  return !INERT_OPERATOR.test(rest);
}

/** `[k]=v` in an array literal: a subscript bash evaluates unless it is a number. */
export function arrayElementEvaluates(text: string): boolean {
  const m = /^\[([^\]]*)\]\+?=/.exec(text);
  return m !== null && !/^\s*\d+\s*$/.test(m[1]!);
}
