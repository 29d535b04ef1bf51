import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { keyedStdin, splitEditKeys } from '../../src/tui/key-chunks';

describe('editing keys that arrive in one read', () => {
  it('each DEL or BS is a key of its own; the text between stays whole; ESC pairs are kept', () => {
    expect(splitEditKeys('\x7f\x7f\x7f')).toEqual(['\x7f', '\x7f', '\x7f']);
    expect(splitEditKeys('ab\x7fc\b')).toEqual(['ab', '\x7f', 'c', '\b']);
    expect(splitEditKeys('\x1b\x7f\x7f')).toEqual(['\x1b\x7f', '\x7f']);
    expect(splitEditKeys('hello\r')).toEqual(['hello\r']);
    expect(splitEditKeys('\x1b[A\x7f')).toEqual(['\x1b[A', '\x7f']);
  });

  it('the stream Ink reads gives one of them per turn of the event loop, saying readable again until all are read', async () => {
    const terminal = new PassThrough() as PassThrough & NodeJS.ReadStream;
    terminal.setEncoding('utf8');
    const keyed = keyedStdin(terminal);
    const turns: unknown[][] = [];
    // Read as Ink does: on each 'readable', until read() gives null.
    const onReadable = (): void => {
      const reads: unknown[] = [];
      for (let chunk = keyed.read(); chunk !== null; chunk = keyed.read()) reads.push(chunk);
      if (reads.length > 0) turns.push(reads);
    };
    keyed.addListener('readable', onReadable);
    terminal.write('zebra\x7f\x7f');
    await until(() => turns.length === 3);
    expect(turns).toEqual([['zebra'], ['\x7f'], ['\x7f']]);
    terminal.write('plain text');
    await until(() => turns.length === 4);
    expect(turns[3]).toEqual(['plain text']);
    keyed.removeListener('readable', onReadable);
    expect(terminal.listenerCount('readable')).toBe(0);
  });
});

async function until(test: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !test(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(test()).toBe(true);
}
