/**
 * A name from a session file (or a team server) as one line of plain text: whitespace runs
 * become one space, and control characters (escape sequences a hostile file could carry to a
 * terminal) are dropped. Every place that shows a session's name reads it through this, so the
 * screen, `tole check` and `tole sessions` show the same text.
 */
export function plainName(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000e-\u001f\u007f-\u009f]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}
