/** Small questions about words and names the classifier asks everywhere. */
import type { Word } from '../shell/syntax';

export function own<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

export function includes(list: readonly string[], value: string): boolean {
  return list.includes(value);
}

export function basename(path: string): string {
  return path.replace(/\/+$/, '').split('/').pop() ?? '';
}

export function isDynamic(w: Word): boolean {
  return w.expands || w.glob;
}

/** The word may turn into an option once bash expands it (`$X` = `-delete`, `*` matching `-rf`). */
export function mayBeOption(w: Word): boolean {
  return w.expands || w.leadingGlob;
}
