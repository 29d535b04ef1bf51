import { useContext } from 'react';
import { ThemeContext, type ThemeView } from './theme-context';

export function useTheme(): ThemeView {
  const view = useContext(ThemeContext);
  if (!view) throw new Error('assert: useTheme outside a ThemeContext provider');
  return view;
}
