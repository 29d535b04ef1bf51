import { createContext } from 'react';
import { visibleControls } from '../../core/terminal-text';
import { painter } from './paint';
import { resolveStyle, type StyleName, type TextStyle } from './styles';
import type { Theme } from './theme';

/** The theme as the components use it: a style name in, Ink text props out. */
export interface ThemeView {
  readonly theme: Theme;
  readonly noColor: boolean;
  style(name: StyleName): TextStyle;
  /**
   * Text painted in a style (and over a base style, such as the selection), as an ANSI string.
   * The text's own escapes and controls are shown, not passed on: only the style's get through.
   */
  paint(text: string, name: StyleName | undefined, base?: StyleName): string;
}

export function themeView(theme: Theme, noColor: boolean): ThemeView {
  const styles = new Map<StyleName, TextStyle>();
  const painters = new Map<string, (text: string) => string>();
  const style = (name: StyleName): TextStyle => {
    let resolved = styles.get(name);
    if (!resolved) styles.set(name, (resolved = resolveStyle(name, theme, noColor)));
    return resolved;
  };
  return {
    theme,
    noColor,
    style,
    paint(text, name, base) {
      const key = `${name ?? ''}/${base ?? ''}`;
      let paint = painters.get(key);
      if (!paint) {
        const merged = { ...(base ? style(base) : {}), ...(name ? style(name) : {}) };
        if (base && style(base).backgroundColor) merged.backgroundColor = style(base).backgroundColor;
        if (base && style(base).inverse) merged.inverse = true;
        painters.set(key, (paint = painter(merged)));
      }
      return paint(visibleControls(text));
    },
  };
}

export const ThemeContext = createContext<ThemeView | null>(null);
