/**
 * Keys that reach tole in one read. Ink splits what it reads from the terminal into keys only at
 * ESC: everything else in a chunk is one "key". A held Backspace, a fast typist over SSH or
 * tmux's `send-keys BSpace BSpace` deliver several DEL (or BS) bytes in one read, which Ink then
 * takes for one unknown key: the prompt dropped them and the one-line fields typed them as
 * invisible text. tole hands Ink its terminal through `keyedStdin`, whose reads give each such
 * byte on its own, so every Backspace is a Backspace wherever the keyboard goes.
 */

/** DEL (what Backspace sends) or BS (Ctrl-H), not right after an ESC (that pair is Alt-Backspace). */
const EDIT_KEY = /(?<!\x1b)[\x7f\b]/;

/** `chunk` in pieces: each DEL or BS alone, the text between as it was (ESC pairs kept whole). */
export function splitEditKeys(chunk: string): string[] {
  if (!EDIT_KEY.test(chunk)) return [chunk];
  const pieces: string[] = [];
  let text = '';
  for (let i = 0; i < chunk.length; i++) {
    const ch = chunk[i]!;
    if ((ch === '\x7f' || ch === '\b') && chunk[i - 1] !== '\x1b') {
      if (text !== '') pieces.push(text);
      pieces.push(ch);
      text = '';
    } else {
      text += ch;
    }
  }
  if (text !== '') pieces.push(text);
  return pieces;
}

/**
 * `stdin` as Ink should read it: the same stream (raw mode, listeners, encoding all go to it),
 * except that a chunk holding several editing keys is read one key per turn of the event loop.
 * One key per turn, not all in one read loop: a one-line field (ink-text-input) reads its value
 * from its last render, so two keys handled before it renders again would both edit the same
 * value and one would be lost. After each key the read ends (null), and the stream says it is
 * readable again on a timer, which runs after the render and the effects (where the field takes
 * its new value) that the key queued. `onKey` is told of each key as it is handed to Ink, before
 * Ink and React handle it (the frame pacer draws what it changes at once).
 */
export function keyedStdin(stdin: NodeJS.ReadStream, onKey?: () => void): NodeJS.ReadStream {
  const queue: string[] = [];
  let handed = false;
  let scheduled = false;
  const again = (): void => {
    scheduled = false;
    if (queue.length > 0) stdin.emit('readable');
  };
  const read = (size?: number): string | Buffer | null => {
    const key = readKey(size);
    if (key !== null) onKey?.();
    return key;
  };
  const readKey = (size?: number): string | Buffer | null => {
    if (handed) {
      // The reader's loop asks once more after a key: end it, and come back next turn.
      handed = false;
      if (queue.length > 0) {
        if (!scheduled) {
          scheduled = true;
          setTimeout(again, 0);
        }
        return null;
      }
    }
    if (queue.length > 0) {
      handed = true;
      return queue.shift()!;
    }
    const chunk: string | Buffer | null = stdin.read(size);
    if (typeof chunk !== 'string') return chunk;
    const pieces = splitEditKeys(chunk);
    if (pieces.length === 1) return chunk;
    queue.push(...pieces.slice(1));
    handed = true;
    return pieces[0]!;
  };
  return new Proxy(stdin, {
    get(target, property) {
      if (property === 'read') return read;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
