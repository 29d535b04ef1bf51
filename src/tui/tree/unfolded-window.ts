import type { Line } from '../style/styled-line';

/** A row on screen in the tree pane: tree row `index`, or (with `line`) one of the rows unfolded beneath it. */
interface WindowItem {
  readonly index: number;
  readonly line?: Line;
  readonly key: string;
}

/**
 * The tree pane's rows from `top`, `height` of them, with the unfolded rows (`extra`) of a row
 * right beneath it. The tree's own rows stay as they are: the unfolded ones are put in here, in
 * the window only. `top` moves down (never up) until the selected row is on screen whole.
 */
export function unfoldedWindow(
  count: number,
  top: number,
  selected: number,
  height: number,
  idOf: (index: number) => string,
  extra: (index: number) => readonly Line[] | null,
): { top: number; items: WindowItem[] } {
  const fill = (from: number): WindowItem[] => {
    const items: WindowItem[] = [];
    for (let index = from; index < count && items.length < height; index++) {
      const id = idOf(index);
      items.push({ index, key: id });
      const more = extra(index) ?? [];
      for (let n = 0; n < more.length && items.length < height; n++)
        items.push({ index, line: more[n]!, key: `${id}:${n}` });
    }
    return items;
  };
  const shown = (items: readonly WindowItem[]) => items.some((item) => item.index === selected && !item.line);
  let first = top;
  let items = fill(first);
  while (first < selected && !shown(items)) items = fill(++first);
  return { top: first, items };
}
