import { StringDecoder } from 'node:string_decoder';
import { Writable } from 'node:stream';
import { VisibleControlsStream } from '../core/terminal-text';

/**
 * `stream` as the commands outside the screen write to it: when it is a terminal, everything
 * written passes through the one terminal sanitizer first, so text from a model, a tool, a file,
 * a session's name or an error message is shown and never acted on (tole prints no styling of
 * its own there). A pipe or a file gets the bytes as they are.
 */
export function shownOnTerminal(stream: NodeJS.WritableStream): NodeJS.WritableStream {
  return (stream as { isTTY?: boolean }).isTTY === true ? new TerminalText(stream) : stream;
}

/** Decodes UTF-8 across writes (a character split between two is whole when shown) and shows what would act. */
class TerminalText extends Writable {
  readonly isTTY = true;
  private readonly decoder = new StringDecoder('utf8');
  private readonly shown = new VisibleControlsStream();

  constructor(private readonly target: NodeJS.WritableStream) {
    super();
  }

  // Passed on at once, as a terminal's stdout takes it (synchronously): nothing waits in this
  // stream when tole exits right after its last write.
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    const text = this.shown.push(this.decoder.write(chunk));
    if (text.length > 0) this.target.write(text);
    done();
  }

  override _final(done: () => void): void {
    const rest = this.shown.push(this.decoder.end()) + this.shown.end();
    if (rest.length > 0) this.target.write(rest);
    done();
  }
}
