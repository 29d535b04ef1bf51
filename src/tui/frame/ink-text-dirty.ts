/**
 * When Yoga lays a text node out again, for Ink 6.8 as tole's build patches it
 * (scripts/ink-output-plugin.mjs): Ink marks a text node dirty for Yoga on every change of its
 * text, and a dirty node makes Yoga measure it and lay out every box above it again, up to the
 * screen's root. A streamed frame changes the transcript's text node (and the clock's, the usage
 * row's) without changing its size: the lines scroll, the pane's width and its row count stay.
 *
 * Here a changed text node is only noted; just before Yoga lays the tree out, each noted node is
 * measured as Ink's measure function would, and marked dirty only when its size changed or when
 * it did not fit at every width Yoga measured it at since it was last marked (wrapped text: its
 * measure depends on more than its size). A node left clean keeps the layout Yoga gave it, which
 * is the one it would give it again: Yoga's measure cache holds this size at those widths.
 */

/** The part of Ink's DOM node this reads and writes. */
interface TextOwner {
  nodeName: string;
  parentNode?: TextOwner | undefined;
  yogaNode?: { markDirty(): void } | undefined;
  /** The size measured when Yoga last measured this node afresh (after it was last marked dirty). */
  toleSize?: { readonly width: number; readonly height: number } | undefined;
  /** False once Yoga measured this node at a width its text did not fit (it was wrapped or cut). */
  toleFits?: boolean | undefined;
}

type Measure = (node: TextOwner) => { readonly width: number; readonly height: number };

const noted = new Set<TextOwner>();

/** In place of Ink's markNodeAsDirty: the node with the Yoga node that holds `node`'s text. */
export function noteTextChanged(node: TextOwner): void {
  let owner: TextOwner | undefined = node.parentNode ? node : undefined;
  while (owner && !owner.yogaNode) owner = owner.parentNode;
  if (!owner?.yogaNode) return;
  if (owner.nodeName !== 'ink-text') {
    owner.yogaNode.markDirty();
    return;
  }
  noted.add(owner);
}

/** Ink's measure function was called at `width` and found the text `width` wide or not. */
export function measuredAt(node: TextOwner, fits: boolean): void {
  if (!fits) node.toleFits = false;
}

/** True when the node is still in the tree drawn (a removed node's Yoga node is freed). */
function attached(node: TextOwner): boolean {
  let at: TextOwner | undefined = node;
  while (at) {
    if (at.nodeName === 'ink-root') return true;
    at = at.parentNode;
  }
  return false;
}

/** Before Yoga lays the tree out: marks dirty each noted text node whose measure may have changed. */
export function markChangedTexts(measure: Measure): void {
  if (noted.size === 0) return;
  for (const node of noted) {
    if (!node.yogaNode || !attached(node)) continue;
    const size = measure(node);
    const before = node.toleSize;
    if (before && node.toleFits !== false && before.width === size.width && before.height === size.height) continue;
    node.toleSize = size;
    node.toleFits = true;
    node.yogaNode.markDirty();
  }
  noted.clear();
}
