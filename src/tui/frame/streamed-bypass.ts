/**
 * A streamed frame drawn without React: while a reply streams and nothing but its text moved,
 * the texts a streamed frame changes (the transcript's lines, the usage pane's, the status bar's
 * spinner) are put into Ink's text nodes as their components would render them, Ink draws the
 * frame from its kept walk (src/tui/frame/ink-kept-walk.ts), and the nodes get React's values
 * back. React, which renders and commits the live readers of every streamed frame otherwise
 * (most of a streamed frame's cost), hears of the text only when something else moves.
 *
 * The fallback is the default. A frame is drawn here only when:
 * - React drew the live turn as it was just before this text (`rendered`), and this frame changes
 *   nothing of it but its streamed text (the turn controller asks only then);
 * - every component that reads the live turn (`useLiveNow`) said, for the turn as it is now,
 *   exactly what its text node would hold after a render, and that nothing else of what it renders
 *   would change (a title, a note, a line count: any other answer is null);
 * - each of those nodes is in the tree Ink drew last, and Ink's build is tole's (its kept walk ran).
 * Ink then lays out, walks and draws the frame from its DOM as for any commit: a text of another
 * size is laid out again, a kept walk of another shape walked whole.
 *
 * React stays behind meanwhile: its text nodes hold what it rendered last. Any commit while it
 * is behind (a key, a resize, a clock step) is not drawn: the turn's listeners are told first, and
 * the commit that follows, with the live turn as it is, is the one drawn (`PacedFrames`).
 */
import { createContext, useContext, useLayoutEffect, useRef } from 'react';
import { noteChanged, walkCounts } from './ink-kept-walk';
import { noteTextChanged } from './ink-text-dirty';
import type { LiveTurn } from '../screen/turn-controller';

/** Ink's DOM nodes as read here. */
export interface BypassNode {
  readonly nodeName: string;
  nodeValue?: string;
  readonly parentNode?: BypassNode | undefined;
  readonly childNodes?: readonly BypassNode[];
}

/** A text a streamed frame changes: its node, and what it would hold for the live turn now. */
export interface LiveText {
  /** Ink's `#text` node holding it; null when there is none to write (the frame falls back). */
  node(): BypassNode | null;
  /**
   * Its value after a render with `live` at `nowMs`, exactly; null when such a render would
   * change anything else (a title, a note, a height, a node), or it cannot tell.
   */
  textFor(live: LiveTurn, nowMs: number): string | null;
}

/** A reader of the live turn that has no `LiveText`: while one is on screen, no frame is drawn here. */
const NO_TEXT: LiveText = { node: () => null, textFor: () => null };

/** The streamed frames the turn controller asks for (src/tui/frame/frame-pacer.ts's StreamedFrames). */
interface DueFrames {
  afterDueFrame(then: () => void): (() => void) | null;
}

/** Ink's root node as the bypass uses it: its layout and its draw. */
interface InkRoot {
  onComputeLayout?: () => void;
  onImmediateRender: () => void;
}

/** Why frames fell back, counted (tests assert both paths ran; the bench reads them). */
export type FallbackReason = 'off' | 'no-root' | 'not-kept' | 'behind' | 'held' | 'no-node' | 'detached' | 'declined';

export class StreamBypass {
  /** Frames drawn here, and frames that fell back to React (by reason). */
  readonly counts = { drawn: 0, fellBack: 0, reasons: {} as Partial<Record<FallbackReason, number>> };
  /** Off: every streamed frame is React's (tests draw both ways). */
  on = true;
  /** The live turn React rendered last (LiveTurnScope notes it). */
  rendered: LiveTurn | null = null;
  /** When a frame was last drawn here (Date.now()): clocks stepped by it need no render of their own. */
  drawnAtMs = 0;
  private root: InkRoot | null = null;
  private readonly texts = new Map<object, LiveText>();
  /** Tells React of the turn as the screen shows it, while it is behind (frames were drawn here since it last rendered). */
  private owed: (() => void) | null = null;

  /** React rendered the live turn `live` (LiveTurnScope): it is no longer behind. */
  noteRendered(live: LiveTurn): void {
    this.rendered = live;
    this.owed = null;
  }

  /** React is behind the screen (a frame was drawn here); `tell` gives it the turn as it is now. */
  owe(tell: () => void): void {
    this.owed = tell;
  }

  /** A frame of React's waits to be drawn (for its slot, or for the streamed frame that is due). */
  get framePending(): boolean {
    return this.held();
  }

  /** Whether React is behind the screen. */
  get behind(): boolean {
    return this.owed !== null;
  }

  /**
   * A commit while React is behind: its text nodes hold older text than the screen shows, so the
   * commit is not drawn; React is told of the turn instead, and its next commit is drawn. True
   * when it was behind.
   */
  catchUp(): boolean {
    const tell = this.owed;
    if (tell === null) return false;
    this.owed = null;
    tell();
    return true;
  }

  /** A frame of React's is waiting to be drawn: the streamed frame must be React's, to draw it. */
  private held: () => boolean = () => false;

  /** The streamed frames the turn controller asks for (PacedFrames), for `afterStreamedFrame`. */
  private due: DueFrames | null = null;

  /**
   * The root Ink draws (PacedFrames), whether a frame of React's waits, and the streamed frames
   * asked for; null when it goes.
   */
  attach(root: InkRoot | null, held: () => boolean = () => false, due: DueFrames | null = null): void {
    this.root = root;
    this.held = held;
    this.due = due;
  }

  /**
   * Calls `then` once the streamed frame that is due now is drawn, here or by React, or dropped;
   * returns its removal. Null when no streamed frame is due (`then` is never called). A clock's
   * step that no frame drew yet waits for it (usePacedStep) instead of waking React: a commit of
   * its own would wait for that frame in the pacer anyway, and make it React's (`held`).
   */
  afterStreamedFrame(then: () => void): (() => void) | null {
    return this.due?.afterDueFrame(then) ?? null;
  }

  /** A live reader on screen, with its text (or none: it blocks the bypass); returns its removal. */
  add(owner: object, text: LiveText | null): () => void {
    this.texts.set(owner, text ?? NO_TEXT);
    return () => {
      if (this.texts.get(owner) === (text ?? NO_TEXT)) this.texts.delete(owner);
    };
  }

  /** Replaces a reader's text (its props changed with a render). */
  set(owner: object, text: LiveText | null): void {
    if (this.texts.has(owner)) this.texts.set(owner, text ?? NO_TEXT);
  }

  /**
   * Draws the frame for `live` (which differs from `previous`, the turn React rendered, only in
   * its streamed text) without React, if every live text vouches for it; false otherwise (React
   * draws it).
   */
  draw(live: LiveTurn, previous: LiveTurn, nowMs: number): boolean {
    if (!this.on) return this.fellBack('off');
    const root = this.root;
    if (root === null || typeof root.onComputeLayout !== 'function') return this.fellBack('no-root');
    // Ink's build is tole's: its walk is kept (the node writes below are noted as its dom.js notes them).
    if (walkCounts.walked === 0) return this.fellBack('not-kept');
    if (this.rendered !== previous) return this.fellBack('behind');
    if (this.held()) return this.fellBack('held');
    const writes: { node: BypassNode; text: string; before: string }[] = [];
    for (const text of this.texts.values()) {
      const node = text.node();
      if (node === null) return this.fellBack('no-node');
      if (!attachedTo(node, root)) return this.fellBack('detached');
      const value = text.textFor(live, nowMs);
      if (value === null) return this.fellBack('declined');
      const before = node.nodeValue ?? '';
      if (value !== before) writes.push({ node, text: value, before });
    }
    for (const write of writes) setValue(write.node, write.text);
    try {
      root.onComputeLayout();
      root.onImmediateRender();
    } finally {
      // React's values back: what it holds is what it rendered, so its next commit changes what it must.
      for (const write of writes) setValue(write.node, write.before);
    }
    this.rendered = live;
    this.drawnAtMs = Date.now();
    this.counts.drawn++;
    return true;
  }

  /**
   * Draws the tree as React holds it, now, through Ink (React must not be behind): the frame a
   * whole render of this moment draws, which tests compare with the frames drawn here.
   */
  drawWhole(): void {
    if (this.owed !== null) throw new Error('drawWhole while React is behind the screen: catchUp first');
    this.root?.onComputeLayout?.();
    this.root?.onImmediateRender();
  }

  private fellBack(reason: FallbackReason): false {
    this.counts.fellBack++;
    this.counts.reasons[reason] = (this.counts.reasons[reason] ?? 0) + 1;
    return false;
  }
}

/** Ink's `setTextNodeValue` as tole's build of dom.js makes it (scripts/ink-output-plugin.mjs). */
function setValue(node: BypassNode, text: string): void {
  node.nodeValue = text;
  noteTextChanged(node as Parameters<typeof noteTextChanged>[0]);
  noteChanged(node as unknown as Parameters<typeof noteChanged>[0]);
}

function attachedTo(node: BypassNode, root: InkRoot): boolean {
  let at: BypassNode | undefined = node;
  while (at?.parentNode) at = at.parentNode;
  return (at as unknown) === root;
}

/** The `#text` node of a lines pane's one text (its box's only child, an ink-text holding one text). */
export function onlyText(box: BypassNode | null): BypassNode | null {
  const text = box?.childNodes?.length === 1 ? box.childNodes[0] : undefined;
  if (text?.nodeName !== 'ink-text' || text.childNodes?.length !== 1) return null;
  const leaf = text.childNodes[0]!;
  return leaf.nodeName === '#text' ? leaf : null;
}

export const BypassContext = createContext<StreamBypass | null>(null);

/**
 * A reader of the live turn on screen (`useLiveNow` calls it): registered with the screen's
 * bypass while mounted, blocking it unless the render that is on screen vouched for a text
 * (`vouch`, called during that render; its text closes over that render's props).
 */
export function useLiveReader(): (text: LiveText) => void {
  const bypass = useContext(BypassContext);
  const reader = useRef<{ text: LiveText | null }>({ text: null }).current;
  // Each render starts with none: a render that does not vouch blocks the bypass.
  reader.text = null;
  useLayoutEffect(() => (bypass === null ? undefined : bypass.add(reader, null)), [bypass, reader]);
  useLayoutEffect(() => {
    bypass?.set(reader, reader.text);
  });
  return (text) => {
    reader.text = text;
  };
}
