/** Numbers as people read them on a status line: tokens in k, sizes in KB (money: core/usage/cost-text). */

export function formatTokens(tokens: number): string {
  if (tokens < 1000) return String(Math.round(tokens));
  if (tokens < 100_000) return `${(tokens / 1000).toFixed(1)}k`;
  if (tokens < 1_000_000) return `${Math.round(tokens / 1000)}k`;
  return `${(tokens / 1_000_000).toFixed(2)}M`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export function formatMs(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** First line of `text`, whitespace collapsed: for one-line previews. */
export function oneLine(text: string): string {
  // Each run of whitespace becomes one space. A lone space already is one, so only longer runs and
  // other whitespace are replaced: the same result without a replacement at every word (about
  // four times faster on prose, which the tree's previews and find in the tree go through).
  return text.replace(/\s{2,}|[^\S ]/g, ' ').trim();
}

/**
 * What plainPreview's passes act on besides a marker at the start: backticks, `**`, `__`, two
 * spaces in a row, and any whitespace but a space (a new line starts a line a marker may begin).
 */
const MAY_NEED_PASSES = /[`*_\t\n\v\f\r\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]| {2}/;
/** A heading or list marker at the start of a text whose only whitespace is single spaces. */
const LEADING_MARKER = /^ {0,3}(#{1,6}|[-*+]|\d+[.)]) +/;

/** A one-line preview of markdown: markers dropped (`**`, backticks, heading hashes, list bullets). */
export function plainPreview(text: string): string {
  // Most texts have no marker and no whitespace but single spaces: only a list or heading marker
  // at the very start can then go, and the other passes would change nothing (three times faster).
  if (!MAY_NEED_PASSES.test(text)) return text.replace(LEADING_MARKER, '').trim();
  return oneLine(
    text
      .replace(/```[\w+#.-]*/g, ' ')
      .replace(/^\s{0,3}(#{1,6}|[-*+]|\d+[.)])\s+/gm, '')
      .replace(/(\*\*|__|`)/g, ''),
  );
}

/** UTF-8 size of a string. */
export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** `1 entry`, `2 entries`, `0 branches`: a count with its noun in the right number. */
export function counted(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}
