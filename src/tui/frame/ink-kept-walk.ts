/**
 * Ink's walk of the tree, kept from one frame to the next, for Ink 6.8 as tole's build patches it
 * (scripts/ink-output-plugin.mjs edits Ink's dom.js and render-node-to-output.js).
 *
 * Each frame Ink walks every node of the screen: it squashes each text node's nested texts
 * (running each nested text's colour transform), measures and wraps the result, and hands the
 * Output one write per text node, with the clips of the boxes around it and the borders and
 * backgrounds of the boxes. A streamed frame changes a few text nodes (the transcript, the usage
 * pane's live row, the status bar); the panes beside them, the rules and the prompt write what
 * they wrote the frame before.
 *
 * Here the walk's operations are kept on the root node. The next frame replays them, with the
 * write of each text node changed since made again at the place it had, when nothing else
 * changed: no node added, moved or removed outside a text node, no box's style changed (its
 * borders, background, clip), no box's transform, and Yoga had nothing to lay out again (the root
 * not dirty when Ink asked for its layout, which Yoga marks for any change of size, place,
 * display or child). Any of those bumps `epoch`, and the next frame walks the whole tree again.
 * The write of a text node is a function of its text nodes below (their values, their
 * transforms, its style) and of its layout: those changes note the text node alone.
 */
import Output, { type Operation, type Transformer } from './ink-output';

/** The part of Ink's DOM node read here. */
export interface InkNode {
  readonly nodeName: string;
  readonly parentNode?: InkNode | undefined;
  readonly style: Readonly<Record<string, unknown>>;
  readonly internal_transform?: Transformer | undefined;
  readonly staticNode?: InkNode | undefined;
  /** On the root: the operations of its last frame and what they are valid for. */
  toleKept?: Kept | undefined;
  /** On a text node: where its write sits among its root's kept operations. */
  toleWrite?: TextWrite | undefined;
}

interface Kept {
  readonly epoch: number;
  readonly width: number;
  readonly height: number;
  operations: readonly Operation[];
}

interface TextWrite {
  readonly root: InkNode;
  /** The walk that made it (a text node not drawn by the root's last walk is not on screen). */
  readonly kept: Kept;
  readonly at: number;
  readonly x: number;
  readonly y: number;
  /** The transforms of the boxes around it, outermost last (its own goes first when it has one). */
  readonly around: readonly Transformer[];
}

type Walk = (node: InkNode, output: unknown, options: { skipStaticElements?: boolean }) => void;

/** Frames drawn from a kept walk and by a whole walk (for tests and the bench: the replay is used). */
export const walkCounts = { replayed: 0, walked: 0 };

let keeping = true;
/** Whether frames may be drawn from a kept walk (tests compare frames drawn both ways). */
export function keepWalks(on: boolean): void {
  keeping = on;
}

/** Bumped by every change that may change a write other than one text node's. */
let epoch = 0;
/** Text nodes whose write may differ from the one kept. */
const changedTexts = new Set<InkNode>();
/** The full walk running now: its text nodes' writes are recorded. */
let recording: { readonly root: InkNode; readonly output: Output; readonly kept: Kept } | null = null;

/**
 * A change to `node` (its text, its children, its style, its transform): a text node, or a text
 * inside one, notes that text node; anything else (a box, the root) bumps the epoch. A text not
 * in a text node yet is drawn by nobody: the text node it is put into is noted then.
 */
export function noteChanged(node: InkNode): void {
  if (node.nodeName === 'ink-text') {
    changedTexts.add(node);
    return;
  }
  if (node.nodeName !== '#text' && node.nodeName !== 'ink-virtual-text') {
    epoch++;
    return;
  }
  let at = node.parentNode;
  while (at !== undefined && at.nodeName !== 'ink-text') at = at.parentNode;
  if (at !== undefined) changedTexts.add(at);
}

/**
 * React hands a node a new style object at every render: a text's style (its wrap) belongs to
 * its write, always made again; a box's changes the walk only when something in it differs.
 */
export function noteStyle(node: InkNode, before: Readonly<Record<string, unknown>>, after: object): void {
  if (node.nodeName !== 'ink-box' && node.nodeName !== 'ink-root') {
    noteChanged(node);
    return;
  }
  const next = after as Readonly<Record<string, unknown>>;
  const keys = Object.keys(next);
  if (keys.length !== Object.keys(before).length) {
    epoch++;
    return;
  }
  for (const key of keys)
    if (!Object.is(before[key], next[key])) {
      epoch++;
      return;
    }
}

/** Yoga is asked for the root's layout: a dirty root (anything laid out again) may move any write. */
export function noteLayout(dirty: boolean, args: readonly unknown[]): void {
  const asked = `${String(args[0])},${String(args[1])},${String(args[2])}`;
  if (dirty || asked !== lastAsked) epoch++;
  lastAsked = asked;
}
let lastAsked = '';

/** A change that is always the whole walk's (a node made static). */
export function noteWhole(): void {
  epoch++;
}

/** In the walk, for a text node: its write, recorded when the root's whole walk is kept. */
export function writeText(
  output: unknown,
  node: InkNode,
  x: number,
  y: number,
  around: readonly Transformer[],
  transformers: readonly Transformer[],
  text: string,
): void {
  if (recording !== null && recording.output === output) {
    node.toleWrite = {
      root: recording.root,
      kept: recording.kept,
      at: recording.output.slot(x, y, text, transformers),
      x,
      y,
      around,
    };
    return;
  }
  if (text.length > 0) (output as Output).write(x, y, text, { transformers });
}

/**
 * Ink's walk (`walk`) from the root, kept: replayed with the changed text nodes' writes made again
 * (`textOf`: Ink's text of a text node, squashed, wrapped and padded) when only those changed.
 */
export function keptWalk(walk: Walk, textOf: (node: InkNode) => string): Walk {
  return (node, output, options) => {
    if (node.nodeName !== 'ink-root' || !(output instanceof Output) || node.staticNode || !options.skipStaticElements) {
      walk(node, output, options);
      return;
    }
    const kept = node.toleKept;
    if (
      keeping &&
      kept !== undefined &&
      kept.epoch === epoch &&
      kept.width === output.width &&
      kept.height === output.height
    ) {
      const operations = kept.operations.slice();
      for (const text of changedTexts) {
        const write = text.toleWrite;
        if (write !== undefined && write.root !== node) continue;
        changedTexts.delete(text);
        // Not drawn by the last walk: under a box not displayed, or out of the tree.
        if (write === undefined || write.kept !== kept) continue;
        const own = text.internal_transform;
        operations[write.at] = {
          type: 'write',
          x: write.x,
          y: write.y,
          text: textOf(text),
          transformers: typeof own === 'function' ? [own, ...write.around] : write.around,
        };
      }
      kept.operations = operations;
      output.replay(operations);
      walkCounts.replayed++;
      return;
    }
    walkCounts.walked++;
    const fresh: Kept = { epoch, width: output.width, height: output.height, operations: [] };
    recording = { root: node, output, kept: fresh };
    try {
      walk(node, output, options);
    } finally {
      recording = null;
    }
    fresh.operations = output.recorded();
    node.toleKept = fresh;
    for (const text of changedTexts)
      if (text.toleWrite === undefined || text.toleWrite.root === node) changedTexts.delete(text);
  };
}
