import { Box } from 'ink';
import { filesDialogLines } from './files-dialog-lines';
import { PaneFrame, innerSize } from '../panes/PaneFrame';
import { StyledLine } from '../style/StyledLine';
import type { FilesDialog } from '../screen/ui-state';

interface FilesDialogPromptProps {
  readonly dialog: FilesDialog;
  readonly width: number;
  readonly maxHeight: number;
}

export function filesDialogHeight(dialog: FilesDialog, width: number, maxHeight: number): number {
  return Math.min(maxHeight, filesDialogLines(dialog, innerSize(width, 0).width).length + 2);
}

/** Takes the keyboard until answered: the restore preview (y/n) or the check-out choice (c/f/Esc). */
export function FilesDialogPrompt({ dialog, width, maxHeight }: FilesDialogPromptProps) {
  const height = filesDialogHeight(dialog, width, maxHeight);
  const inner = innerSize(width, height);
  const lines = filesDialogLines(dialog, inner.width);
  // When the list is too long for the screen, the keys (the last line) stay visible.
  const keep =
    lines.length > inner.height ? [...lines.slice(0, Math.max(0, inner.height - 1)), lines[lines.length - 1]!] : lines;
  return (
    <PaneFrame
      title={dialog.kind === 'restore' ? 'restore files?' : 'check out: files too?'}
      width={width}
      height={height}
      focused
      tone="accent"
    >
      <Box flexDirection="column">
        {keep.slice(0, inner.height).map((line, i) => (
          <StyledLine key={i} line={line} />
        ))}
      </Box>
    </PaneFrame>
  );
}
