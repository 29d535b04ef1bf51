import type { ChildPath } from './child-path';
import { counted } from '../text/format';
import { previewGlyph } from './entry-glyph';
import { spread } from '../transcript/entry-lines';
import { seg, type Line } from '../style/styled-line';

/**
 * The rows an unfolded `task` call shows beneath itself, `indent` cells in: a first row naming
 * how many entries the sub-agent has (read-only: its rows are not check-out targets of this
 * session, and the selection passes over them), then one row a
 * child entry; or one row saying why the child's file cannot be shown.
 */
export function childLines(child: ChildPath, indent: number, width: number): Line[] {
  const pad = `${' '.repeat(indent)}┊ `;
  if (!child.ok) return [spread([seg(pad, 'muted'), seg(`⚠ ${child.short}`, 'warn')], [], width)];
  const count = counted(child.entries.length, 'entry', 'entries');
  const head = spread([seg(pad, 'muted'), seg(`${count}, read-only`, 'faint')], [], width);
  return [
    head,
    ...child.entries.map((entry) => {
      const { glyph, style, text } = previewGlyph(entry);
      return spread([seg(pad, 'muted'), seg(glyph, style), seg(' '), seg(text, 'muted')], [], width);
    }),
  ];
}
