import { currentHead } from '../../core/session/cursor';
import type { SessionStore } from '../../core/storage/session-store';

/** A terminal multiplexer between tole and the terminal: it swallows OSC 52 unless the sequence is passed through. */
export type Multiplexer = 'tmux' | 'screen' | null;

/** tmux sets `TMUX`, GNU screen sets `STY`; tmux inside screen talks to tmux first. */
export function multiplexerOf(env: Readonly<Record<string, string | undefined>>): Multiplexer {
  if (env['TMUX']) return 'tmux';
  if (env['STY']) return 'screen';
  return null;
}

/**
 * How a clipboard sequence from inside tmux reaches the terminal, as tmux's options say:
 * `passthrough` (allow-passthrough on, or a tmux older than 3.3, which always passed it),
 * `set-clipboard` (tmux takes OSC 52 itself and sets the terminal's clipboard), or `blocked`
 * (neither: tmux drops it).
 */
export type TmuxClipboardRoute = 'passthrough' | 'set-clipboard' | 'blocked';

/** The tmux tole runs in, asked by the host (it runs `tmux`). */
export interface TmuxClipboard {
  /** How tmux passes a clipboard sequence on; rejects, saying why, when tmux cannot be asked. */
  route(): Promise<TmuxClipboardRoute>;
  /** Puts the text in tmux's paste buffer (prefix ] pastes it). */
  loadBuffer(text: string): Promise<void>;
}

/** OSC 52 "set the clipboard" (`c`), the text base64-encoded, ended with BEL. */
export function osc52(text: string): string {
  return `\x1b]52;c;${Buffer.from(text, 'utf8').toString('base64')}\x07`;
}

/** GNU screen cuts a string sequence longer than 256 bytes (older versions): each DCS piece stays under it. */
const SCREEN_PIECE = 252;

/**
 * A string sequence (OSC) as the terminal behind a multiplexer receives it. tmux passes on what
 * is inside `ESC P tmux; … ESC \` with each ESC doubled (tmux 3.3+ needs `allow-passthrough on`);
 * GNU screen passes on each `ESC P … ESC \` piece, so the sequence goes in short pieces.
 */
export function passedThrough(seq: string, via: Multiplexer): string {
  if (via === 'tmux') return `\x1bPtmux;${seq.replaceAll('\x1b', '\x1b\x1b')}\x1b\\`;
  if (via === 'screen') {
    let out = '';
    for (let i = 0; i < seq.length; i += SCREEN_PIECE) out += `\x1bP${seq.slice(i, i + SCREEN_PIECE)}\x1b\\`;
    return out;
  }
  return seq;
}

/** The clipboard sequence as the terminal behind a multiplexer receives it. */
export function clipboardSequence(text: string, via: Multiplexer): string {
  return passedThrough(osc52(text), via);
}

/** The text of the last assistant answer on the checked-out path; null when there is none. */
export function lastAnswer(store: SessionStore): string | null {
  const path = store.tree.pathTo(currentHead(store).entryId);
  for (let i = path.length - 1; i >= 0; i--) {
    const entry = path[i]!;
    if (entry.type === 'assistant' && entry.payload.text.trim() !== '') return entry.payload.text;
  }
  return null;
}
