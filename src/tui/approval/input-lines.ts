import { visibleLines } from '../text/visible-text';

/** Bound on the lines one input gives the approval box (a model's input can be any size). */
export const MAX_INPUT_LINES = 2_000;

const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

function keyText(key: string): string {
  return PLAIN_KEY.test(key) ? key : JSON.stringify(key);
}

/** A value that fits after `key: ` on its line; null for one that takes lines of its own. */
function scalar(value: unknown): string | null {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return value.includes('\n') ? null : visibleLines(value)[0]!;
  if (typeof value !== 'object') return String(value);
  if (Array.isArray(value)) return value.length === 0 ? '[]' : null;
  return Object.keys(value).length === 0 ? '{}' : null;
}

function push(out: string[], line: string): void {
  if (out.length < MAX_INPUT_LINES + 1) out.push(line);
}

function valueLines(value: unknown, indent: string, out: string[]): void {
  if (typeof value === 'string') {
    for (const line of visibleLines(value)) push(out, `${indent}${line}`);
    return;
  }
  if (Array.isArray(value)) {
    for (const item of value) fieldLines('-', item, indent, out);
    return;
  }
  for (const [key, item] of Object.entries(value as Record<string, unknown>))
    fieldLines(`${keyText(key)}:`, item, indent, out);
}

function fieldLines(label: string, value: unknown, indent: string, out: string[]): void {
  const one = scalar(value);
  if (one !== null) return push(out, `${indent}${label} ${one}`);
  // A multi-line string is a block: each of its lines on a line of its own, as YAML's `|`.
  if (typeof value !== 'string') {
    push(out, `${indent}${label}`);
    return valueLines(value, `${indent}  `, out);
  }
  // As YAML says it: `|` ends with one line break, `|-` with none, `|+` with more.
  const ends = /\n*$/.exec(value)![0].length;
  push(out, `${indent}${label} ${ends === 0 ? '|-' : ends === 1 ? '|' : '|+'}`);
  valueLines(ends === 1 ? value.slice(0, -1) : value, `${indent}  `, out);
}

/**
 * A tool call's input as indented YAML-like lines: `key: value`, nested objects and lists
 * indented under their key, a multi-line string as a block of its own lines. Every string is
 * shown as what it holds (controls made visible), so each line of the input reads as a line.
 * Past MAX_INPUT_LINES the rest is counted, not drawn.
 */
export function inputLines(input: unknown): string[] {
  const out: string[] = [];
  valueLines(input === null || typeof input !== 'object' ? String(input) : input, '', out);
  if (out.length > MAX_INPUT_LINES) {
    out.length = MAX_INPUT_LINES;
    out.push(`… the input goes on past ${MAX_INPUT_LINES} lines`);
  }
  return out;
}
