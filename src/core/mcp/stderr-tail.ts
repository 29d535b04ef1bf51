/** The last `limitBytes` of what a server wrote to stderr, to show when it fails. */
export class StderrTail {
  private chunks: Buffer[] = [];
  private bytes = 0;

  constructor(private readonly limitBytes = 4096) {}

  push(chunk: Buffer | string): void {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    this.chunks.push(buffer);
    this.bytes += buffer.length;
    while (this.bytes > this.limitBytes && this.chunks.length > 1) this.bytes -= this.chunks.shift()!.length;
  }

  /** The tail as text, trimmed, at most the limit (cut at a line start when one is near). */
  text(): string {
    let buffer = Buffer.concat(this.chunks);
    if (buffer.length > this.limitBytes) buffer = buffer.subarray(buffer.length - this.limitBytes);
    return buffer
      .toString('utf8')
      .replace(/^[^\n]*\uFFFD[^\n]*\n/, '')
      .trim();
  }
}
