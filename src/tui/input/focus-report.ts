/**
 * A focus report (focus reporting on, `CSI ?1004h`): `ESC [ I` when the terminal gains focus,
 * `ESC [ O` when it loses it. Ink hands a sequence it does not know with its ESC taken off; the
 * key splitter keeps each one whole. Null when `input` is no focus report.
 */
export function focusReport(input: string): 'in' | 'out' | null {
  const body = input.startsWith('\x1b') ? input.slice(1) : input;
  if (body === '[I') return 'in';
  if (body === '[O') return 'out';
  return null;
}
