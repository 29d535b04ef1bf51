import { ShellParseError } from './tokens';

const ANSI_SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

/** Decodes one `$'…'` escape at `src[pos]` (a backslash): the text and how many characters it used. */
export function decodeAnsiEscape(src: string, pos: number): [string, number] {
  const c = src[pos + 1];
  if (c === undefined) throw new ShellParseError("a $'…' string is never closed");
  const simple = ANSI_SIMPLE_ESCAPES[c];
  if (simple !== undefined) return [simple, 2];
  const numeric = /^(?:([0-7]{1,3})|x([0-9A-Fa-f]{1,2})|u([0-9A-Fa-f]{1,4})|U([0-9A-Fa-f]{1,8}))/.exec(
    src.slice(pos + 1, pos + 10),
  );
  if (numeric) {
    const [all, octal, hex2, hex4, hex8] = numeric;
    const code = octal !== undefined ? parseInt(octal, 8) : parseInt((hex2 ?? hex4 ?? hex8)!, 16);
    if (code > 0x10ffff) throw new ShellParseError(`\\${all} is not a character`);
    return [String.fromCodePoint(code), 1 + all.length];
  }
  if (c === 'c' && src[pos + 2] !== undefined) return [String.fromCharCode(src.charCodeAt(pos + 2) & 0x1f), 3];
  return ['\\' + c, 2];
}
