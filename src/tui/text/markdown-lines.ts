import { seg, wrapLine, type Line, type Segment } from '../style/styled-line';
import { delimiterAligns, isPipeLine, tableCells, tableLines } from './markdown-table';
import type { StyleName } from '../style/styles';

/**
 * Light markdown for the transcript: headings, lists, quotes, rules, fenced code and inline
 * `code`, **bold**, *emphasis*, links and pipe tables. Text that is not markdown reads as it was written.
 * An unclosed fence (a reply still streaming) shows the rest as code.
 */

const INLINE = /(`[^`\n]+`)|(\*\*[^*\n]+\*\*)|(__[^_\n]+__)|(\*[^*\s\n][^*\n]*\*)|(\[[^\]\n]+\]\([^)\s]+\))/g;

function inlineSegments(text: string, base: StyleName = 'text'): Segment[] {
  const out: Segment[] = [];
  let last = 0;
  for (const match of text.matchAll(INLINE)) {
    const index = match.index ?? 0;
    if (index > last) out.push(seg(text.slice(last, index), base));
    const token = match[0];
    if (match[1]) out.push(seg(token.slice(1, -1), 'code'));
    else if (match[2] || match[3]) out.push(seg(token.slice(2, -2), 'strong'));
    else if (match[4]) out.push(seg(token.slice(1, -1), 'emphasis'));
    else {
      const close = token.indexOf('](');
      out.push(seg(token.slice(1, close), 'accent'), seg(` (${token.slice(close + 2, -1)})`, 'muted'));
    }
    last = index + token.length;
  }
  if (last < text.length) out.push(seg(text.slice(last), base));
  return out;
}

interface BlockLine {
  readonly line: Line;
  readonly indent: Line;
}

function proseLine(raw: string, base: StyleName): BlockLine {
  const heading = /^(#{1,6})\s+(.*)$/.exec(raw);
  if (heading) return { line: [seg(heading[2]!, 'heading')], indent: [] };
  if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(raw)) return { line: [seg('─'.repeat(40), 'muted')], indent: [] };
  const quote = /^\s*>\s?(.*)$/.exec(raw);
  if (quote) return { line: [seg('│ ', 'muted'), ...inlineSegments(quote[1]!, 'quote')], indent: [seg('│ ', 'muted')] };
  const bullet = /^(\s*)[-*+]\s+(.*)$/.exec(raw);
  if (bullet) {
    const pad = ' '.repeat(bullet[1]!.length);
    return { line: [seg(`${pad}• `, 'accent'), ...inlineSegments(bullet[2]!, base)], indent: [seg(`${pad}  `)] };
  }
  const numbered = /^(\s*)(\d+[.)])\s+(.*)$/.exec(raw);
  if (numbered) {
    const marker = `${numbered[1]}${numbered[2]} `;
    return {
      line: [seg(marker, 'accent'), ...inlineSegments(numbered[3]!, base)],
      indent: [seg(' '.repeat(marker.length))],
    };
  }
  return { line: inlineSegments(raw, base), indent: [] };
}

/** The lines of complete source lines, and the fence open after them. */
interface Parsed {
  readonly width: number;
  readonly base: StyleName;
  /** Text up to and including its last newline. */
  readonly prefix: string;
  readonly fence: string | null;
  readonly lines: readonly Line[];
}

/** A few recent texts: a streamed reply is laid out again each frame as it grows, and only its new lines need work. */
const recent: Parsed[] = [];
const MAX_RECENT = 4;
/** Shorter texts are laid out whole: remembering them costs more than it saves. */
const MIN_REMEMBERED = 512;

/** Forgets the remembered texts (tests compare a fresh layout with a remembered one). */
export function clearMarkdownMemo(): void {
  recent.length = 0;
}

function layOut(
  raws: readonly string[],
  fence: string | null,
  width: number,
  base: StyleName,
  out: Line[],
): string | null {
  for (let i = 0; i < raws.length; i++) {
    const raw = raws[i]!;
    const aligns =
      fence === null && isPipeLine(raw) && i + 1 < raws.length
        ? delimiterAligns(raws[i + 1]!, tableCells(raw).length)
        : null;
    if (aligns) {
      let end = i + 2;
      while (end < raws.length && isPipeLine(raws[end]!)) end++;
      const table = tableLines(raw, aligns, raws.slice(i + 2, end), width, inlineSegments);
      if (table) {
        out.push(...table);
        i = end - 1;
        continue;
      }
    }
    const fenceMatch = /^\s*(```+|~~~+)\s*([\w+#.-]*)\s*$/.exec(raw);
    if (fenceMatch && (fence === null || raw.trim().startsWith(fence))) {
      fence = fence === null ? fenceMatch[1]! : null;
      out.push([seg(raw.trim(), 'faint')]);
      continue;
    }
    if (fence !== null) {
      out.push(...wrapLine([seg('  '), seg(raw, 'codeBlock')], width, [seg('  ')]));
      continue;
    }
    const { line, indent } = proseLine(raw, base);
    out.push(...wrapLine(line, width, indent));
  }
  return fence;
}

/**
 * Markdown text as screen lines of at most `width` cells. A text that extends one laid out
 * lately (a reply streaming in) reuses the lines of its complete source lines: each frame costs
 * its new lines, not the whole reply.
 */
export function markdownLines(text: string, width: number, base: StyleName = 'text'): Line[] {
  const cut = text.lastIndexOf('\n') + 1;
  let from = 0;
  let fence: string | null = null;
  let out: Line[] = [];
  let known: Parsed | undefined;
  for (const parsed of recent) {
    if (
      parsed.width === width &&
      parsed.base === base &&
      parsed.prefix.length <= cut &&
      (!known || parsed.prefix.length > known.prefix.length) &&
      text.startsWith(parsed.prefix)
    )
      known = parsed;
  }
  if (known) {
    from = known.prefix.length;
    fence = known.fence;
    out = known.lines.slice();
  }
  // A table needs all its rows to size its columns, so lines that may belong to one (a run of
  // lines with pipes at the end of the complete ones) are laid out with the last line each time.
  const complete = cut > from ? text.slice(from, cut - 1).split('\n') : [];
  let stable = complete.length;
  while (stable > 0 && isPipeLine(complete[stable - 1]!)) stable--;
  if (stable > 0) {
    fence = layOut(complete.slice(0, stable), fence, width, base, out);
    const end = from + complete.slice(0, stable).join('\n').length + 1;
    if (end >= MIN_REMEMBERED) {
      if (known) recent.splice(recent.indexOf(known), 1);
      else if (recent.length >= MAX_RECENT) recent.shift();
      recent.push({ width, base, prefix: text.slice(0, end), fence, lines: out.slice() });
    }
  }
  layOut([...complete.slice(stable), text.slice(cut)], fence, width, base, out);
  return out;
}
