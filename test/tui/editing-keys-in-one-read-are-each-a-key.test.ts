import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { keyedStdin, keyPacingOf } from '../../src/tui/input/key-chunks';
import { KeySplitter, MAX_SEQUENCE_CHARS } from '../../src/tui/input/key-splitter';

const split = (chunk: string): string[] => new KeySplitter().push(chunk);

describe('keys that arrive in one read', () => {
  it('each key is a piece of its own: controls, sequences with modifiers, Alt keys, graphemes', () => {
    expect(split('\x7f\x7f\x7f')).toEqual(['\x7f', '\x7f', '\x7f']);
    expect(split('ab\x7fc\b')).toEqual(['a', 'b', '\x7f', 'c', '\b']);
    expect(split('\x1b\x7f\x7f')).toEqual(['\x1b\x7f', '\x7f']);
    expect(split('hi\r')).toEqual(['h', 'i', '\r']);
    expect(split('\x1b[A\x1b[A\x1b[1;5B\x1bOA\x1b[5~\x1b[Z\t\t')).toEqual([
      '\x1b[A',
      '\x1b[A',
      '\x1b[1;5B',
      '\x1bOA',
      '\x1b[5~',
      '\x1b[Z',
      '\t',
      '\t',
    ]);
    expect(split('\x1b\x1b[A\x1bb\x1b[[A\x1b[<0;3;4M')).toEqual(['\x1b\x1b[A', '\x1bb', '\x1b[[A', '\x1b[<0;3;4M']);
    expect(split('e\u0301👍🏽🇫🇷a😀')).toEqual(['e\u0301', '👍🏽', '🇫🇷', 'a', '😀']);
    expect(split('\x1b😀')).toEqual(['\x1b😀']);
  });

  it('a sequence that never ends is not held for ever: past MAX_SEQUENCE_CHARS it is Alt-[ and text', () => {
    const splitter = new KeySplitter();
    expect(splitter.push('\x1b[1;2')).toEqual([]);
    const keys = splitter.push('3'.repeat(MAX_SEQUENCE_CHARS + 10));
    expect(keys[0]).toBe('\x1b[');
    expect(keys.slice(1).join('')).toBe(`1;2${'3'.repeat(MAX_SEQUENCE_CHARS + 10)}`);
    expect(splitter.held).toBe('');
  });

  it('a bracketed paste is its marks and its text whole, newlines and all', () => {
    expect(split('k\x1b[200~one\rtwo\tthree\x1b[201~j')).toEqual([
      'k',
      '\x1b[200~',
      'one\rtwo\tthree',
      '\x1b[201~',
      'j',
    ]);
  });

  it('a key cut by the end of a read is held until the next read completes it', () => {
    const splitter = new KeySplitter();
    expect(splitter.push('a\x1b[1;')).toEqual(['a']);
    expect(splitter.held).toBe('\x1b[1;');
    expect(splitter.push('5A')).toEqual(['\x1b[1;5A']);
    expect(splitter.push('x\ud83d')).toEqual(['x']);
    expect(splitter.push('\ude00')).toEqual(['😀']);
    expect(splitter.push('\x1b[200~ab\x1b[2')).toEqual(['\x1b[200~', 'ab']);
    expect(splitter.push('01~')).toEqual(['\x1b[201~']);
    expect(splitter.push('\x1bO')).toEqual([]);
    expect(splitter.flush()).toEqual(['\x1bO']);
    expect(splitter.held).toBe('');
  });

  it('the stream Ink reads gives one key per turn of the event loop, saying readable again until all are read', async () => {
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
    terminal.write('ze\x7f\x1b[A');
    await until(() => turns.length === 4);
    expect(turns).toEqual([['z'], ['e'], ['\x7f'], ['\x1b[A']]);
    // A sequence cut by the end of a read waits for its rest.
    terminal.write('\x1b[5');
    await until(() => terminal.readableLength === 0);
    terminal.write('~');
    await until(() => turns.length === 5);
    expect(turns[4]).toEqual(['\x1b[5~']);
    // Nothing completes it: it is given as it is; a lone ESC is then the Escape key.
    terminal.write('\x1b[');
    await until(() => turns.length === 6);
    expect(turns[5]).toEqual(['\x1b[']);
    terminal.write('\x1b');
    await until(() => turns.length === 7);
    expect(turns[6]).toEqual(['\x1b']);
    keyed.removeListener('readable', onReadable);
    expect(terminal.listenerCount('readable')).toBe(0);
  });
});

describe('what skips Ink', () => {
  it('a paste goes whole to the keyboard, and a lone ESC ending a read is its Escape key, each in order', async () => {
    const terminal = new PassThrough() as PassThrough & NodeJS.ReadStream;
    terminal.setEncoding('utf8');
    const keyed = keyedStdin(terminal);
    const seen: string[] = [];
    const pacing = keyPacingOf(keyed)!;
    // A keyboard that draws at once: it says each key is drawn as soon as it has it.
    const drawn = (what: string): void => {
      pacing.began();
      seen.push(what);
      pacing.settled();
    };
    const detach = pacing.attach({ paste: (text) => drawn(`paste:${text}`), escape: () => drawn('escape') });
    keyed.addListener('readable', () => {
      for (let chunk = keyed.read(); chunk !== null; chunk = keyed.read()) drawn(`key:${String(chunk)}`);
    });
    terminal.write('a\x1b[200~one\ttwo\rthree');
    await until(() => terminal.readableLength === 0);
    terminal.write('\x1b[201~b\x1b');
    await until(() => seen.length === 4);
    expect(seen).toEqual(['key:a', 'paste:one\ttwo\rthree', 'key:b', 'escape']);
    detach();
    expect(keyPacingOf(terminal)).toBeNull();
  });
});

async function until(test: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !test(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(test()).toBe(true);
}
