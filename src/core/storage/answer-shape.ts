/**
 * What the task state's fold asks of every assistant answer on a path (task-state.ts): whether it
 * called tools, and whether its text may hold a plan. A 100,000-entry session's answers are still
 * the bytes in the file when its first frame is drawn; parsing each (and keeping 50,000 parsed
 * payloads for the collector to scan) cost more than the rest of the screen, for two yes/no
 * answers. So they are read from the bytes, checked as strictly as `JSON.parse` checks them
 * (json-skip.ts), and a payload written any other way is left to `JSON.parse`.
 */
import {
  at,
  BACKSLASH,
  CLOSE_BRACE,
  CLOSE_BRACKET,
  COLON,
  COMMA,
  OPEN_BRACE,
  OPEN_BRACKET,
  QUOTE,
  skipSpace,
  skipString,
  skipValue,
} from './json-skip';
import { ReplayedEntry } from './replayed-entry';

export interface AnswerShape {
  /** `payload.toolCalls` is a non-empty array. */
  readonly calls: boolean;
  /**
   * `payload.text` may match plan-inference.ts's `/\[[ xX]\]|plan/i`; false only when it cannot:
   * its bytes hold no `\u` escape (every other escape stands for a character outside that pattern,
   * so the pattern can only match the bytes as written) and no such match.
   */
  readonly mayHoldPlan: boolean;
}

const SHAPES: readonly AnswerShape[] = [
  { calls: false, mayHoldPlan: false },
  { calls: false, mayHoldPlan: true },
  { calls: true, mayHoldPlan: false },
  { calls: true, mayHoldPlan: true },
];

const TEXT = Buffer.from('text');
const TOOL_CALLS = Buffer.from('toolCalls');
const LOWER_U = 0x75;

/**
 * The shape of an answer whose payload is still unparsed bytes, or null: the payload is parsed
 * already (read it), or is not an object holding a string `text` and an array `toolCalls` written
 * with plain keys, or is not JSON (reading the payload then names the line, as before).
 */
export function answerShapeOf(entry: object): AnswerShape | null {
  if (!(entry instanceof ReplayedEntry) || !ReplayedEntry.isUnparsed(entry)) return null;
  const [bytes, start, end] = ReplayedEntry.rangeOf(entry);
  return shapeInBytes(bytes, start, end);
}

/** The shape of the JSON object in `b[start, end)`, read as `JSON.parse` would (the last of a repeated key counts). */
export function shapeInBytes(b: Buffer, start: number, end: number): AnswerShape | null {
  return shapeOfCode(shapeCode(b, start, end));
}

/**
 * The shape a code of `shapeCode` stands for: null for 0 (the bytes are not read as an answer's
 * payload; parse them).
 */
export function shapeOfCode(code: number): AnswerShape | null {
  return code === 0 ? null : SHAPES[code - 1]!;
}

/**
 * `shapeInBytes` as a number that fits a byte column (the column scan keeps one per answer): 0 for
 * null, else 1 + (calls ? 2 : 0) + (mayHoldPlan ? 1 : 0).
 */
export function shapeCode(b: Buffer, start: number, end: number): number {
  let i = skipSpace(b, start, end);
  if (at(b, i, end) !== OPEN_BRACE) return 0;
  i = skipSpace(b, i + 1, end);
  let calls = -1;
  let textFrom = -1;
  let textTo = -1;
  for (;;) {
    if (at(b, i, end) !== QUOTE) return 0;
    const keyEnd = skipString(b, i, end);
    if (keyEnd < 0) return 0;
    const isText = isKey(b, i + 1, keyEnd - 1, TEXT);
    const isCalls = isKey(b, i + 1, keyEnd - 1, TOOL_CALLS);
    // An escaped key may spell either (`"te\u0078t"`): JSON.parse reads those.
    if (!isText && !isCalls && hasBackslash(b, i + 1, keyEnd - 1)) return 0;
    i = skipSpace(b, keyEnd, end);
    if (at(b, i, end) !== COLON) return 0;
    i = skipSpace(b, i + 1, end);
    const valueEnd = skipValue(b, i, end);
    if (valueEnd < 0) return 0;
    if (isText) {
      if (b[i] !== QUOTE) return 0;
      textFrom = i + 1;
      textTo = valueEnd - 1;
    } else if (isCalls) {
      if (b[i] !== OPEN_BRACKET) return 0;
      calls = b[skipSpace(b, i + 1, end)] === CLOSE_BRACKET ? 0 : 1;
    }
    i = skipSpace(b, valueEnd, end);
    const c = at(b, i, end);
    if (c === CLOSE_BRACE) break;
    if (c !== COMMA) return 0;
    i = skipSpace(b, i + 1, end);
  }
  if (skipSpace(b, i + 1, end) !== end || calls < 0 || textFrom < 0) return 0;
  return 1 + calls * 2 + (mayHoldPlan(b, textFrom, textTo) ? 1 : 0);
}

function hasBackslash(b: Buffer, from: number, to: number): boolean {
  for (let k = from; k < to; k++) if (b[k] === BACKSLASH) return true;
  return false;
}

function isKey(b: Buffer, from: number, to: number, key: Buffer): boolean {
  if (to - from !== key.length) return false;
  for (let k = 0; k < key.length; k++) if (b[from + k] !== key[k]) return false;
  return true;
}

/** The bytes mayHoldPlan stops at: an escape, a `[`, a `p` or `P`. */
const PLAN_STOP = new Uint8Array(256);
for (const c of [BACKSLASH, OPEN_BRACKET, 0x70, 0x50]) PLAN_STOP[c] = 1;

/** Whether a JSON string's bytes `b[from, to)` may decode to text matching `/\[[ xX]\]|plan/i`. */
function mayHoldPlan(b: Buffer, from: number, to: number): boolean {
  let k = from;
  while (k < to) {
    // A table look-up per byte, eight to a test, as json-skip.ts reads a string.
    while (
      k + 8 <= to &&
      (PLAN_STOP[b[k]!]! |
        PLAN_STOP[b[k + 1]!]! |
        PLAN_STOP[b[k + 2]!]! |
        PLAN_STOP[b[k + 3]!]! |
        PLAN_STOP[b[k + 4]!]! |
        PLAN_STOP[b[k + 5]!]! |
        PLAN_STOP[b[k + 6]!]! |
        PLAN_STOP[b[k + 7]!]!) ===
        0
    )
      k += 8;
    while (k < to && PLAN_STOP[b[k]!] === 0) k++;
    if (k >= to) return false;
    const c = b[k]!;
    if (c === BACKSLASH) {
      if (b[k + 1] === LOWER_U) return true;
      k += 2;
      continue;
    }
    if (c === OPEN_BRACKET) {
      const inside = b[k + 1];
      if (k + 2 < to && (inside === 0x20 || inside === 0x78 || inside === 0x58) && b[k + 2] === CLOSE_BRACKET)
        return true;
    } else if (
      k + 3 < to &&
      (b[k + 1]! | 0x20) === 0x6c &&
      (b[k + 2]! | 0x20) === 0x61 &&
      (b[k + 3]! | 0x20) === 0x6e
    ) {
      // `p` or `P`, then `lan` in any case: `| 0x20` folds an ASCII capital to its small letter; no other byte lands on these.
      return true;
    }
    k++;
  }
  return false;
}
