import { countNewlines, type ClippedOutput } from '../cap-output';

/**
 * Collects a process's output in arrival order within `limitBytes` of memory: the first half is
 * kept as it came, then a rolling tail of the second half; what falls out between them is
 * counted (bytes and line breaks) so the elision marker can say how much was lost.
 */
export class OutputCapture {
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private readonly tail: Buffer[] = [];
  private tailBytes = 0;
  private elidedBytes = 0;
  private elidedLines = 0;

  private constructor(private readonly halfLimitBytes: number) {}

  static create(limitBytes: number): OutputCapture {
    if (limitBytes < 2) throw new Error(`assert: capture limit ${limitBytes} is too small`);
    return new OutputCapture(Math.floor(limitBytes / 2));
  }

  get totalBytes(): number {
    return this.headBytes + this.elidedBytes + this.tailBytes;
  }

  push(chunk: Buffer): void {
    const headRoom = this.halfLimitBytes - this.headBytes;
    let rest = chunk;
    if (headRoom > 0) {
      const kept = rest.subarray(0, headRoom);
      this.head.push(kept);
      this.headBytes += kept.length;
      rest = rest.subarray(kept.length);
    }
    if (rest.length === 0) return;
    this.tail.push(rest);
    this.tailBytes += rest.length;
    this.dropTailExcess();
  }

  result(): ClippedOutput {
    return {
      head: Buffer.concat(this.head),
      tail: Buffer.concat(this.tail),
      elidedBytes: this.elidedBytes,
      elidedLines: this.elidedLines,
    };
  }

  private dropTailExcess(): void {
    while (this.tailBytes > this.halfLimitBytes) {
      const oldest = this.tail[0];
      const excess = this.tailBytes - this.halfLimitBytes;
      const dropped = oldest.length <= excess ? (this.tail.shift() as Buffer) : oldest.subarray(0, excess);
      if (dropped !== oldest) this.tail[0] = oldest.subarray(excess);
      this.tailBytes -= dropped.length;
      this.elidedBytes += dropped.length;
      this.elidedLines += countNewlines(dropped);
    }
  }
}
