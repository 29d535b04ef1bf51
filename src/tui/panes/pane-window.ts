import { useRef } from 'react';
import type { PaneContent } from './pane-content';
import type { Line } from '../style/styled-line';

/** Cuts a pane's lines to its height from a scroll offset, and says where it is when it does not all fit. */
export function windowed(title: string, lines: readonly Line[], offset: number, height: number): PaneContent {
  const top = Math.max(0, Math.min(offset, lines.length - height));
  const note = lines.length > height ? `${top + 1}-${Math.min(lines.length, top + height)}/${lines.length}` : undefined;
  return { title, lines: lines.slice(top, top + height), ...(note ? { note } : {}) };
}

/** `windowed`, remembering its last answer: the same lines, offset and height give the same object. */
export function useMemoWindow(title: string): (lines: readonly Line[], offset: number, height: number) => PaneContent {
  const last = useRef<{ lines: readonly Line[]; offset: number; height: number; content: PaneContent } | null>(null);
  return (lines, offset, height) => {
    const held = last.current;
    if (held && held.lines === lines && held.offset === offset && held.height === height) return held.content;
    const content = windowed(title, lines, offset, height);
    last.current = { lines, offset, height, content };
    return content;
  };
}
