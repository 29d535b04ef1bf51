import { Text } from 'ink';
import { truncate } from './cell-width';
import type { Flash } from './ui-state';
import { useTheme } from './use-theme';

/** One line of news from the screen itself: a check-out, a refused key, a repaired file. */
export function FlashLine({ flash, width }: { readonly flash: Flash; readonly width: number }) {
  const theme = useTheme();
  const glyph = flash.level === 'info' ? 'ℹ' : '!';
  const style = flash.level === 'error' ? 'error' : flash.level === 'warn' ? 'warn' : 'accent';
  return (
    <Text wrap="truncate-end" {...theme.style(style)}>
      {truncate(` ${glyph} ${flash.text}`, width)}
    </Text>
  );
}
