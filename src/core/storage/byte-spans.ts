/**
 * Questions the fast readers of tole's own lines ask of a span of bytes (lazy-commit.ts and the
 * first open's column scan, column-scan.ts): whether it begins with given bytes, is plain ASCII,
 * equals another span, and how long RegisterState counts a flat object value written there.
 */
import { BACKSLASH, CLOSE_BRACE, COMMA, jsonSkipper, OPEN_BRACKET, QUOTE } from './json-skip';

const { skipString, skipValue } = jsonSkipper(true);

export function grown<T extends Int32Array | Float64Array | Uint8Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

export function startsWith(file: Buffer, at: number, end: number, bytes: Buffer): boolean {
  if (at + bytes.length > end) return false;
  for (let k = 0; k < bytes.length; k++) if (file[at + k] !== bytes[k]) return false;
  return true;
}

export function sameBytes(file: Buffer, at: number, other: Buffer, from: number, length: number): boolean {
  for (let k = 0; k < length; k++) if (file[at + k] !== other[from + k]) return false;
  return true;
}

/** No escape and no byte past ASCII in `file[from, to)`: the text's length is its byte count. */
export function plainAscii(file: Buffer, from: number, to: number): boolean {
  for (let k = from; k < to; k++) {
    const c = file[k]!;
    if (c === BACKSLASH || c >= 0x80) return false;
  }
  return true;
}

/**
 * RegisterState's length of a flat object value (`{"k":"v",…}`, no spaces, keys and strings plain
 * ASCII, every key once, values strings, integers, true, false or null), read from its bytes; -1
 * for anything else (the value is then built and measured).
 */
export function flatObjectLength(file: Buffer, from: number, to: number): number {
  if (file[from + 1] === CLOSE_BRACE) return from + 2 === to ? 2 : -1;
  let length = 2;
  const keys: [number, number][] = [];
  let i = from + 1;
  for (;;) {
    if (file[i] !== QUOTE) return -1;
    const keyEnd = skipString(file, i, to);
    if (keyEnd < 0 || !plainAscii(file, i + 1, keyEnd - 1) || file[keyEnd] !== 0x3a) return -1;
    for (const [other, otherEnd] of keys) {
      if (otherEnd - other === keyEnd - i && sameBytes(file, i, file, other, keyEnd - i)) return -1;
    }
    if (keys.length >= 8) return -1;
    keys.push([i, keyEnd]);
    const keyLength = keyEnd - i - 2;
    const valueFrom = keyEnd + 1;
    const c = file[valueFrom];
    let valueTo: number;
    if (c === QUOTE) {
      valueTo = skipString(file, valueFrom, to);
      if (valueTo < 0 || !plainAscii(file, valueFrom + 1, valueTo - 1)) return -1;
      length += keyLength + valueTo - valueFrom - 2 + 6;
    } else if (c === 0x7b || c === OPEN_BRACKET) return -1;
    else {
      valueTo = skipValue(file, valueFrom, to);
      if (valueTo < 0) return -1;
      length += keyLength + 20;
    }
    if (file[valueTo] === CLOSE_BRACE) return valueTo + 1 === to ? length : -1;
    if (file[valueTo] !== COMMA) return -1;
    i = valueTo + 1;
  }
}
