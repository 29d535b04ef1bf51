import { createContext } from 'react';
import { resolveStyle, type StyleName, type TextStyle } from './styles';
import type { Theme } from './theme';

/** The theme as the components use it: a style name in, Ink text props out. */
export interface ThemeView {
  readonly theme: Theme;
  readonly noColor: boolean;
  style(name: StyleName): TextStyle;
}

export function themeView(theme: Theme, noColor: boolean): ThemeView {
  const cache = new Map<StyleName, TextStyle>();
  return {
    theme,
    noColor,
    style(name) {
      let style = cache.get(name);
      if (!style) cache.set(name, (style = resolveStyle(name, theme, noColor)));
      return style;
    },
  };
}

export const ThemeContext = createContext<ThemeView | null>(null);
