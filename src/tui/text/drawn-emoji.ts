/**
 * Emoji as tole draws them: without a skin-tone modifier (U+1F3FB–U+1F3FF after an emoji), the
 * emoji presentation selector (U+FE0F) or a keycap's enclosing mark (U+20E3). Terminals disagree
 * about their width: tmux 3.3 draws 👍🏽 as an emoji and a modifier (4 cells) where string-width,
 * which Ink and tole lay lines out with, counts 2; and ❤️, ✌️ or 1️⃣ in 1 cell where it counts 2.
 * A line holding one pushed its pane's right border off, or pulled it in. Without them, what
 * string-width counts is what tmux and the other terminals draw (👍 2 cells, ❤ 1, 1 1). The text
 * itself (the session, the export, `/copy`) keeps them; only the screen leaves them out.
 */
const DISPUTED = /\uFE0F|(?<=[0-9#*]\uFE0F?)\u20E3|(?<=[\uDC00-\uDFFF\u261D\u26F9\u270A-\u270D])\uD83C[\uDFFB-\uDFFF]/g;

/** A cheap test first: every disputed character has one of these code units. */
function mayHold(text: string): boolean {
  return text.includes('\uFE0F') || text.includes('\u20E3') || text.includes('\uD83C');
}

/** `text` as the screen draws it (see above): the same string when there is nothing to leave out. */
export function drawnEmoji(text: string): string {
  return mayHold(text) ? text.replace(DISPUTED, '') : text;
}
