import { seg, wrapLine, type Line, type Segment } from './styled-line';
import type { StyleName } from './styles';

/**
 * Light markdown for the transcript: headings, lists, quotes, rules, fenced code and inline
 * `code`, **bold**, *emphasis* and links. Text that is not markdown reads as it was written.
 * An unclosed fence (a reply still streaming) shows the rest as code.
 */

const INLINE = /(`[^`\n]+`)|(\*\*[^*\n]+\*\*)|(__[^_\n]+__)|(\*[^*\s\n][^*\n]*\*)|(\[[^\]\n]+\]\([^)\s]+\))/g;

export function inlineSegments(text: string, base: StyleName = 'text'): Segment[] {
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
    return { line: [seg(marker, 'accent'), ...inlineSegments(numbered[3]!, base)], indent: [seg(' '.repeat(marker.length))] };
  }
  return { line: inlineSegments(raw, base), indent: [] };
}

/** Markdown text as screen lines of at most `width` cells. */
export function markdownLines(text: string, width: number, base: StyleName = 'text'): Line[] {
  const out: Line[] = [];
  let fence: string | null = null;
  for (const raw of text.split('\n')) {
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
  return out;
}
