import { Box } from 'ink';
import { seg, truncateLine, wrapLine, type Line } from '../style/styled-line';
import { StyledLine } from '../style/StyledLine';
import type { Flash } from '../screen/ui-state';

/** A flash takes at most this many lines; a longer one is cut. */
const MAX_FLASH_LINES = 3;

/** The flash as lines of the screen's width. */
export function flashLines(flash: Flash, width: number): Line[] {
  const style = flash.level === 'error' ? 'error' : flash.level === 'warn' ? 'warn' : 'accent';
  const glyph = flash.level === 'info' ? 'ℹ' : '!';
  const lines = wrapLine([seg(` ${glyph} `, style), seg(flash.text, style)], width, [seg('   ')]);
  if (lines.length <= MAX_FLASH_LINES) return lines;
  const kept = lines.slice(0, MAX_FLASH_LINES);
  kept[MAX_FLASH_LINES - 1] = truncateLine([...kept[MAX_FLASH_LINES - 1]!, seg(' …', style)], width);
  return kept;
}

/** News from the screen itself: a check-out, a refused key, a repaired file. */
export function FlashLine({ lines }: { readonly lines: readonly Line[] }) {
  return (
    <Box flexDirection="column" flexShrink={0}>
      {lines.map((line, i) => (
        <StyledLine key={i} line={line} />
      ))}
    </Box>
  );
}
