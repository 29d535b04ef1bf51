import { visibleControls, visibleLines } from '../text/visible-text';

/** Bound on the lines one input gives the approval box (a model's input can be any size). */
export const MAX_INPUT_LINES = 2_000;

/**
 * Nesting drawn as indentation up to this depth; deeper lines say their depth instead (`[d40] `),
 * so a line of an input nested 100,000 deep is not 200,000 spaces before its text.
 */
export const MAX_INDENT_DEPTH = 16;

const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

/** A key as it is: quoted unless plain, and every hidden or reordering character in it named. */
function keyText(key: string): string {
  return PLAIN_KEY.test(key) ? key : visibleControls(JSON.stringify(key));
}

function indentOf(depth: number): string {
  return depth <= MAX_INDENT_DEPTH ? '  '.repeat(depth) : `${'  '.repeat(MAX_INDENT_DEPTH)}[d${depth}] `;
}

/** A value that fits after `key: ` on its line; null for one that takes lines of its own. */
function scalar(value: unknown): string | null {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return value.includes('\n') ? null : visibleLines(value)[0]!;
  if (typeof value !== 'object') return String(value);
  if (Array.isArray(value)) return value.length === 0 ? '[]' : null;
  return Object.keys(value).length === 0 ? '{}' : null;
}

/** What is left to lay out: a value's own lines, or a labelled field (`key:` or `-`). */
type Work =
  | { readonly value: unknown; readonly depth: number }
  | { readonly label: string; readonly value: unknown; readonly depth: number };

/** The work one value gives, in order: a string's lines, a list's items, an object's fields. */
function valueWork(value: unknown, depth: number, out: string[]): Work[] {
  if (typeof value === 'string') {
    for (const line of visibleLines(value)) out.push(`${indentOf(depth)}${line}`);
    return [];
  }
  if (Array.isArray(value)) return value.map((item) => ({ label: '-', value: item, depth }));
  return Object.entries(value as Record<string, unknown>).map(([key, item]) => ({
    label: `${keyText(key)}:`,
    value: item,
    depth,
  }));
}

function fieldWork(label: string, value: unknown, depth: number, out: string[]): Work[] {
  const one = scalar(value);
  if (one !== null) {
    out.push(`${indentOf(depth)}${label} ${one}`);
    return [];
  }
  // A multi-line string is a block: each of its lines on a line of its own, as YAML's `|`.
  if (typeof value !== 'string') {
    out.push(`${indentOf(depth)}${label}`);
    return [{ value, depth: depth + 1 }];
  }
  // As YAML says it: `|` ends with one line break, `|-` with none, `|+` with more.
  const ends = /\n*$/.exec(value)![0].length;
  out.push(`${indentOf(depth)}${label} ${ends === 0 ? '|-' : ends === 1 ? '|' : '|+'}`);
  return [{ value: ends === 1 ? value.slice(0, -1) : value, depth: depth + 1 }];
}

/**
 * A tool call's input as indented YAML-like lines: `key: value`, nested objects and lists
 * indented under their key, a multi-line string as a block of its own lines. Every string and
 * key is shown as what it holds (controls made visible, hidden characters named), so each line of
 * the input reads as a line. Past MAX_INPUT_LINES the rest is counted, not drawn. Laid out
 * without recursion: a model's input may nest deeper than the stack (`[[[…]]]` 20,000 deep).
 */
export function inputLines(input: unknown): string[] {
  const out: string[] = [];
  const todo: Work[] = [{ value: input === null || typeof input !== 'object' ? String(input) : input, depth: 0 }];
  while (todo.length > 0 && out.length <= MAX_INPUT_LINES) {
    const work = todo.pop()!;
    const next =
      'label' in work ? fieldWork(work.label, work.value, work.depth, out) : valueWork(work.value, work.depth, out);
    for (let i = next.length - 1; i >= 0; i--) todo.push(next[i]!);
  }
  if (out.length > MAX_INPUT_LINES) {
    out.length = MAX_INPUT_LINES;
    out.push(`… the input goes on past ${MAX_INPUT_LINES} lines`);
  }
  return out;
}
