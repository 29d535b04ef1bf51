import { planSize } from '../../core/checkpoints/checkpoint-store';
import { planLines } from '../../core/checkpoints/plan-text';
import { uncheckpointedWarning } from '../../core/session/restore-files';
import { CHECKPOINT_MARK } from '../tree/entry-glyph';
import { spread } from '../transcript/entry-lines';
import { seg, truncateLine, wrapLine, type Line, type Segment } from '../style/styled-line';
import type { StyleName } from '../style/styles';
import type { FilesDialog } from '../screen/ui-state';

/** Paths of each kind the prompt names before it says "and N more". */
const PROMPT_PATHS = 6;

const MARK_STYLES: Readonly<Record<string, StyleName>> = { '~': 'warn', '-': 'danger', '+': 'ok' };

function keyLine(keys: readonly [string, string][], width: number): Line {
  const out: Segment[] = [];
  for (const [key, what] of keys) out.push(seg(key, 'accentBold'), seg(` ${what}    `));
  return truncateLine(out, width);
}

/**
 * Whether the prompt is a restore prompt that may restore: its preview is still coming (y then
 * says to wait), or it has files to change. A refused preview, or one with nothing to change,
 * offers only to close: y does nothing there, and neither the prompt nor the status bar offers it.
 */
export function restoreOffered(dialog: FilesDialog | null): boolean {
  if (dialog?.kind !== 'restore') return false;
  const { preview } = dialog;
  return preview === null || (preview.ok && planSize(preview.plan) > 0);
}

/** The files prompt: what restoring would create, overwrite and remove, and the keys that answer it. */
export function filesDialogLines(dialog: FilesDialog, width: number): Line[] {
  const { kind, entryId, preview } = dialog;
  const title = kind === 'restore' ? `restore the files to how they were at ${entryId}` : `check out ${entryId}`;
  const checkpoint = preview?.ok ? `${CHECKPOINT_MARK} ${preview.target.checkpoint.slice(0, 12)}` : '';
  const lines: Line[] = [spread([seg(title, 'strong')], [seg(checkpoint, 'faint')], width)];
  const warning = preview?.ok ? uncheckpointedWarning(preview.target) : null;
  if (warning) lines.push(...wrapLine([seg(`! ${warning}`, 'warn')], width, [seg('  ')]));
  if (!preview) lines.push([seg('looking at what would change…', 'muted')]);
  else if (!preview.ok) lines.push(...wrapLine([seg(preview.reason, 'warn')], width, [seg('  ')]));
  else if (planSize(preview.plan) === 0)
    lines.push([seg('the files are already as they were there: nothing to change', 'muted')]);
  else {
    const [counts, ...rest] = planLines(preview.plan, PROMPT_PATHS);
    lines.push([seg(counts!, 'text')]);
    for (const text of rest) {
      const style = MARK_STYLES[text[0] ?? ''];
      lines.push(truncateLine([seg(`  ${text}`, style ?? 'faint')], width));
    }
  }
  lines.push([]);
  if (kind === 'restore') {
    lines.push(
      keyLine(
        restoreOffered(dialog)
          ? [
              ['y', 'restore (the files as they are now are checkpointed first)'],
              ['n', 'cancel'],
            ]
          : [['n', 'close']],
        width,
      ),
    );
  } else {
    lines.push(
      keyLine(
        [
          ['c', 'conversation only'],
          ['f', 'conversation and files'],
          ['Esc', 'cancel'],
        ],
        width,
      ),
    );
  }
  return lines;
}
