/**
 * The `@path` mentions a prompt makes: what the user means to attach. A mention starts at the
 * prompt's start or after whitespace (so `me@example.com` is none), is a run of non-space
 * characters or a double-quoted name (`@"my notes.md"`), and loses the punctuation that ends a
 * sentence (`look at @a.ts.`). Code is left alone: nothing inside a fenced block or an inline code
 * span is a mention, which is also how a prompt says `@name` as plain text.
 */

/** At most this many files are attached to one prompt. */
export const MAX_ATTACHMENTS = 10;

/** One mention: the path as written (quotes taken off) and where the `@` is in the prompt. */
interface Mention {
  readonly path: string;
  readonly at: number;
}

const TRAILING_PUNCTUATION = /[.,;:!?)\]}'"]+$/;

/** The prompt's mentions in order, each path once. */
export function promptMentions(prompt: string): Mention[] {
  const found: Mention[] = [];
  const seen = new Set<string>();
  for (const { from, to } of proseRanges(prompt)) {
    const prose = prompt.slice(from, to);
    for (const match of prose.matchAll(/(^|\s)@(?:"([^"\n]+)"|(\S+))/g)) {
      const quoted = match[2];
      const written = quoted ?? match[3]!.replace(TRAILING_PUNCTUATION, '');
      if (written === '' || seen.has(written)) continue;
      seen.add(written);
      found.push({ path: written, at: from + match.index + match[1]!.length });
    }
  }
  return found;
}

/** The parts of the prompt outside code: fenced blocks (``` or ~~~ lines) and inline code spans are cut out. */
function proseRanges(prompt: string): Array<{ from: number; to: number }> {
  const ranges: Array<{ from: number; to: number }> = [];
  let fence: string | null = null;
  let offset = 0;
  for (const line of prompt.split('\n')) {
    const start = offset;
    offset += line.length + 1;
    const opener = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence !== null) {
      if (opener !== undefined && opener[0] === fence[0] && opener.length >= fence.length) fence = null;
      continue;
    }
    if (opener !== undefined) {
      fence = opener;
      continue;
    }
    ranges.push(...outsideSpans(line, start));
  }
  return ranges;
}

/** A line's stretches outside inline code spans (a run of backticks closed by a run as long). */
function outsideSpans(line: string, start: number): Array<{ from: number; to: number }> {
  const ranges: Array<{ from: number; to: number }> = [];
  let from = 0;
  let at = 0;
  while (at < line.length) {
    const open = /`+/.exec(line.slice(at));
    if (open === null) break;
    const openAt = at + open.index;
    const ticks = open[0];
    const close = new RegExp(`(?<!\`)${ticks}(?!\`)`).exec(line.slice(openAt + ticks.length));
    if (close === null) {
      at = openAt + ticks.length;
      continue;
    }
    ranges.push({ from: start + from, to: start + openAt });
    from = openAt + ticks.length + close.index + ticks.length;
    at = from;
  }
  ranges.push({ from: start + from, to: start + line.length });
  return ranges;
}
