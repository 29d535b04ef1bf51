import { KeySplitter, PASTE_END, PASTE_START } from './key-splitter';

/**
 * Keys that reach tole in one read. Ink splits what it reads into keys only at ESC, and hands
 * every key of a read to the screen before the screen draws again: `Up Up Up` in one read moved
 * the transcript once (each key scrolled from the window last drawn), `kkkkk` was one unknown key,
 * `Tab Tab` no key at all. tole hands Ink its terminal through `keyedStdin`, whose reads give one
 * key at a time (KeySplitter says where a key ends), so every key acts, in order.
 */

/** How long a sequence cut by the end of a read waits for its rest before it is given as it is. */
const SEQUENCE_WAIT_MS = 50;

/** A bracketed paste longer than this keeps its first characters (the prompt refuses far fewer). */
const MAX_PASTE_CHARS = 1_000_000;

/** Where the keys that do not go through Ink go: the screen's keyboard (useKeyboard). */
interface KeyboardSink {
  /**
   * A bracketed paste, whole: its text never goes through Ink's key parsing (which makes a lone
   * Tab or Enter in it a key with no text). Null: pastes go to Ink as keys, marks and text.
   */
  readonly paste: ((text: string) => void) | null;
  /** The Escape key: a lone ESC at the end of a read (Ink would hold it back, waiting for more). */
  readonly escape: () => void;
}

/**
 * How the screen tells the stream that a key has been drawn. The screen's keyboard attaches while
 * it listens; it says when it began on a key and when what that key changed has been drawn and its
 * effects have run (the session picker a key opens takes its own key listener in effects, and
 * the next key reads the layout that key drew). Until then the next key waits.
 */
interface KeyPacing {
  /** A keyboard listens: keys wait for it to say each has been drawn. Returns its detach. */
  attach(sink: KeyboardSink): () => void;
  /** The keyboard is handling the key just handed. */
  began(): void;
  /** What the keys handled so far changed is drawn, effects and all. */
  settled(): void;
}

const PACING = Symbol('tole.keyPacing');

/** The pacing of a stream made by `keyedStdin`; null for any other stream (tests' fake terminals). */
export function keyPacingOf(stdin: NodeJS.ReadStream): KeyPacing | null {
  return (stdin as NodeJS.ReadStream & { [PACING]?: KeyPacing })[PACING] ?? null;
}

/** What waits to be handed: a key for Ink, or what goes straight to the keyboard. */
type Queued = string | { readonly paste: string } | { readonly escape: true };

/**
 * `stdin` as Ink should read it: the same stream (raw mode, listeners, encoding all go to it),
 * except that each read gives one key, and the next key only once the screen has drawn what the
 * one before did. Ink hands every key of a read to the screen in one loop, and React draws some
 * time later (not always before a timer set when the key came: two keys in two of ten runs saw
 * the same state). So after each key the read ends (null), and the stream says it is readable
 * again when the keyboard attached through `KeyPacing` says the key is drawn; with no keyboard
 * attached, or when no keyboard took the key, on the next turn of the event loop. A sequence cut
 * by the end of a read waits SEQUENCE_WAIT_MS for its rest, then is given as it is; a lone ESC
 * that ends a read is the Escape key at once (as Ink and terminal programs take it). `onKey` is
 * told of each key as it is handed, before Ink and React handle it (the frame pacer draws what
 * it changes at once). `answer` takes the terminal's answers to tole's questions out of the keys
 * (true: `key` was one, and no key).
 */
export function keyedStdin(
  stdin: NodeJS.ReadStream,
  onKey?: () => void,
  answer?: (key: string) => boolean,
): NodeJS.ReadStream {
  const splitter = new KeySplitter();
  const queue: Queued[] = [];
  // The attached keyboards (the newest takes what skips Ink), and the paste being read.
  const sinks: KeyboardSink[] = [];
  let pasted: string | null = null;
  // A key was handed and is not drawn yet: the next one waits.
  let busy = false;
  let began = false;
  let waiting: NodeJS.Timeout | undefined;
  const release = (): void => {
    if (!busy) return;
    busy = false;
    // Not from inside React's effects: once they have all run.
    if (queue.length > 0) queueMicrotask(() => !busy && queue.length > 0 && stdin.emit('readable'));
  };
  const pacing: KeyPacing = {
    attach(sink) {
      sinks.push(sink);
      return () => {
        sinks.splice(sinks.indexOf(sink), 1);
        if (sinks.length === 0) release();
      };
    },
    began() {
      began = true;
    },
    settled() {
      if (began) release();
    },
  };
  /** The next key: to Ink (returned), or to the keyboard (null: Ink reads nothing this time). */
  const hand = (): string | null => {
    busy = true;
    began = false;
    onKey?.();
    const next = queue.shift()!;
    const sink = sinks.at(-1);
    if (typeof next === 'string' || !sink || ('paste' in next && !sink.paste)) {
      setTimeout(() => {
        if (sinks.length === 0 || !began) release();
      }, 0);
      if (typeof next === 'string') return next;
      return 'paste' in next ? `${PASTE_START}${next.paste}${PASTE_END}` : '\x1b';
    }
    began = true;
    // After Ink's read loop, not inside it; the keyboard says when it is drawn.
    queueMicrotask(() => ('paste' in next ? sink.paste!(next.paste) : sink.escape()));
    return null;
  };
  /** Keys to the queue; a paste's text gathered, to go whole to a keyboard that takes pastes. */
  const enqueue = (keys: readonly string[]): void => {
    for (const key of keys) {
      if (pasted !== null) {
        if (key === PASTE_END) {
          queue.push({ paste: pasted });
          pasted = null;
        } else if (pasted.length < MAX_PASTE_CHARS) pasted += key.slice(0, MAX_PASTE_CHARS - pasted.length);
      } else if (key === PASTE_START && sinks.at(-1)?.paste) pasted = '';
      else if (!answer?.(key)) queue.push(key);
    }
  };
  const giveHeld = (): void => {
    waiting = undefined;
    enqueue(splitter.flush());
    if (queue.length > 0 && !busy) stdin.emit('readable');
  };
  const take = (chunk: string): void => {
    clearTimeout(waiting);
    waiting = undefined;
    enqueue(splitter.push(chunk));
    if (splitter.held === '\x1b') {
      splitter.flush();
      queue.push({ escape: true });
    } else if (splitter.held !== '') waiting = setTimeout(giveHeld, SEQUENCE_WAIT_MS);
  };
  const read = (size?: number): string | Buffer | null => {
    // What arrived is taken in at once (its keys wait in order behind those before it), read
    // until the stream says it has no more: a stream read only part way stops reading the
    // terminal, and with nothing else to do the process would end.
    for (let chunk = stdin.read(size); chunk !== null; chunk = stdin.read(size)) {
      if (typeof chunk !== 'string') return chunk;
      take(chunk);
    }
    return queue.length === 0 || busy ? null : hand();
  };
  return new Proxy(stdin, {
    get(target, property) {
      if (property === 'read') return read;
      if (property === PACING) return pacing;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
