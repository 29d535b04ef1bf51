/**
 * A drop-in for Ink 6.8's `build/measure-text.js` (swapped in by the bundler:
 * scripts/ink-output-plugin.mjs): the same measure, remembered in a bounded map. Ink's own keeps
 * every text it ever measured; a pane drawn as one text node (src/tui/panes/LinesPane.tsx) is a new
 * text on every streamed frame, which that map would keep for as long as tole runs.
 */
import widestLine from '../text/text-width';

const MAX_TEXTS = 2_000;
const measured = new Map<string, { width: number; height: number }>();

export default function measureText(text: string): { width: number; height: number } {
  if (text.length === 0) return { width: 0, height: 0 };
  let dimensions = measured.get(text);
  if (dimensions === undefined) {
    let height = 1;
    for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) height++;
    dimensions = { width: widestLine(text), height };
    if (measured.size >= MAX_TEXTS) measured.clear();
    measured.set(text, dimensions);
  }
  return dimensions;
}
