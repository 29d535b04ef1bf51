import { cellWidth, graphemes, truncate } from './cell-width';

/** `~/x` for a path under the home directory `home`, else the path as it is. */
export function homeShort(path: string, home: string): string {
  if (home === '' || home === '/') return path;
  const base = home.endsWith('/') ? home.slice(0, -1) : home;
  return path.startsWith(`${base}/`) ? `~${path.slice(base.length)}` : path;
}

/** A path's pieces, each ending with its separator (`/tmp/`, `a/`, `name.jsonl`). */
function pieces(path: string): string[] {
  return path.split(/(?<=\/)/).filter((piece) => piece !== '');
}

/** `text` cut in the middle to `width` cells: its start and its end, `…` between. */
function middleCut(text: string, width: number): string {
  if (cellWidth(text) <= width) return text;
  if (width <= 1) return truncate(text, width);
  const chars = Array.from(text);
  const tailCells = Math.floor((width - 1) / 2);
  let tail = '';
  for (let i = chars.length - 1; i >= 0 && cellWidth(chars[i]! + tail) <= tailCells; i--) tail = chars[i]! + tail;
  return `${truncate(text, width - cellWidth(tail)).replace(/…$/, '')}…${tail}`;
}

/**
 * A path in at most `width` cells: whole when it fits; else cut in the middle at separators,
 * keeping its first piece and as many of its last pieces as fit (`/home/…/sessions/1-a.jsonl`),
 * so the file's name stays whole; a name that alone is too long is cut in its own middle.
 */
export function fitPath(path: string, width: number): string {
  if (cellWidth(path) <= width) return path;
  const parts = pieces(path);
  const head = parts.length > 1 ? parts[0]! : '';
  let tail = '';
  for (let i = parts.length - 1; i > 0; i--) {
    const next = parts[i]! + tail;
    if (cellWidth(head) + 2 + cellWidth(next) > width) break;
    tail = next;
  }
  if (tail !== '') return `${head}…/${tail}`;
  return middleCut(path, width);
}

/** The graphemes of `text` that fit in `width` cells, and at least one (a wide one on a one-cell line). */
function head(text: string, width: number): string {
  let out = '';
  let used = 0;
  for (const g of graphemes(text)) {
    if (out !== '' && used + g.width > width) break;
    out += g.text;
    used += g.width;
  }
  return out;
}

/**
 * A path over lines of `width` cells (the first `firstWidth`), broken after a separator, never
 * inside a name unless the name alone is longer than a line.
 */
export function wrapPath(path: string, width: number, firstWidth = width): string[] {
  const lines: string[] = [];
  let line = '';
  let room = firstWidth;
  const push = (): void => {
    lines.push(line);
    line = '';
    room = width;
  };
  for (let piece of pieces(path)) {
    if (line !== '' && cellWidth(line + piece) > room) push();
    while (cellWidth(piece) > room) {
      const cut = head(piece, room);
      lines.push(cut);
      room = width;
      piece = piece.slice(cut.length);
    }
    line += piece;
  }
  if (line !== '' || lines.length === 0) lines.push(line);
  return lines;
}
