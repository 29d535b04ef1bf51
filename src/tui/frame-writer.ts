/**
 * Draws Ink's frames on the alternate screen by rewriting only the lines that changed.
 *
 * Ink (6.8) either erases and rewrites its whole output on every frame, or, with its incremental
 * mode, drifts a line down per frame when the output does not fill the screen. This sits between
 * Ink and the terminal: Ink writes a whole frame, and the terminal receives, in one synchronized
 * update, each changed line at its absolute row. A streamed token costs one line, not a screen.
 */

const SYNC_START = '\x1b[?2026h';
const SYNC_END = '\x1b[?2026l';
/** Ink's "erase the previous frame": erase-line / cursor-up pairs ending in cursor-left. */
// eslint-disable-next-line no-control-regex
const ERASE_PREFIX = /^(?:\x1b\[2K(?:\x1b\[1A)?)+\x1b\[G/;
// eslint-disable-next-line no-control-regex
const CLEAR_PREFIX = /^(?:\x1b\[2J|\x1b\[3J|\x1b\[H|\x1b\[0f|\x1bc)+/;
// eslint-disable-next-line no-control-regex
const ONLY_CONTROL = /^(?:\x1b\[[0-9;?]*[A-Za-z])*$/;

/** SGR parameters that set a colour: 30-39, 40-49, 90-97, 100-107, and the 38/48 extended forms. */
function dropColours(sgr: string): string {
  const params = sgr.split(';');
  const kept: string[] = [];
  for (let i = 0; i < params.length; i++) {
    const n = Number(params[i]);
    if (n === 38 || n === 48) {
      i += params[i + 1] === '5' ? 2 : 4;
      continue;
    }
    if ((n >= 30 && n <= 49) || (n >= 90 && n <= 107)) continue;
    kept.push(params[i]!);
  }
  return kept.length === 0 ? '' : `\x1b[${kept.join(';')}m`;
}

/** A line with every colour code taken out (bold, dim, inverse and the rest stay): `NO_COLOR`. */
export function withoutColour(line: string): string {
  // eslint-disable-next-line no-control-regex
  return line.replace(/\x1b\[([0-9;]*)m/g, (_, params: string) => (params === '' ? '\x1b[m' : dropColours(params)));
}

export class FrameWriter {
  private previous: string[] = [];
  /** The stream to hand Ink: the real one, except that `write` goes through here. */
  readonly stream: NodeJS.WriteStream;

  /** With `noColor`, no colour code reaches the terminal, whoever asked for it (Ink resets included). */
  constructor(
    private readonly out: NodeJS.WriteStream,
    private readonly noColor = false,
  ) {
    const write = (data: string | Uint8Array, ...rest: unknown[]): boolean => {
      this.write(typeof data === 'string' ? data : Buffer.from(data).toString('utf8'));
      const callback = rest.find((r): r is () => void => typeof r === 'function');
      callback?.();
      return true;
    };
    this.stream = new Proxy(out, {
      get(target, property) {
        if (property === 'write') return write;
        const value = Reflect.get(target, property, target) as unknown;
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
  }

  /** Draws the last frame whole again (after the screen was cleared, on a resize). */
  repaint(): void {
    const lines = this.previous;
    this.previous = [];
    this.draw(lines);
  }

  private write(data: string): void {
    if (data === SYNC_START || data === SYNC_END) return;
    let rest = data;
    const cleared = CLEAR_PREFIX.exec(rest);
    if (cleared) {
      this.out.write('\x1b[2J');
      this.previous = [];
      rest = rest.slice(cleared[0].length);
    }
    rest = rest.replace(ERASE_PREFIX, '');
    if (rest === '') return;
    if (ONLY_CONTROL.test(rest)) {
      this.out.write(rest);
      return;
    }
    const lines = rest.endsWith('\n') ? rest.slice(0, -1).split('\n') : rest.split('\n');
    this.draw(this.noColor ? lines.map(withoutColour) : lines);
  }

  private draw(lines: string[]): void {
    let out = '';
    const count = Math.max(lines.length, this.previous.length);
    for (let i = 0; i < count; i++) {
      const line = lines[i];
      if (line === this.previous[i]) continue;
      // Erase first, then write: an erase after a line that reaches the last column would cut its last cell.
      out += `\x1b[${i + 1};1H\x1b[0m\x1b[2K${line ?? ''}\x1b[0m`;
    }
    this.previous = lines;
    if (out !== '') this.out.write(SYNC_START + out + SYNC_END);
  }
}
