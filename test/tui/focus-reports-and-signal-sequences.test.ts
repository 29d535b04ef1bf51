import { describe, expect, it } from 'vitest';
import { focusReport } from '../../src/tui/input/focus-report';
import { KeySplitter } from '../../src/tui/input/key-splitter';
import { FOCUS_OFF, FOCUS_ON, TerminalScreen } from '../../src/tui/frame/terminal-screen';
import { osc9, showsOsc9, signalSequence } from '../../src/tui/status/terminal-signal';
import { FakeStdin, FakeStdout } from './harness';

describe('focus reports', () => {
  it('the key splitter keeps CSI I and CSI O whole, apart from the keys around them, even cut across reads', () => {
    const splitter = new KeySplitter();
    expect(splitter.push('a\x1b[Ob\x1b[I')).toEqual(['a', '\x1b[O', 'b', '\x1b[I']);
    expect(splitter.push('x\x1b[')).toEqual(['x']);
    expect(splitter.push('O')).toEqual(['\x1b[O']);
  });

  it('are told apart from keys that look like them', () => {
    expect(focusReport('[I')).toBe('in');
    expect(focusReport('\x1b[O')).toBe('out');
    // SS3 O (ESC O with a final byte) is a function key, and a typed I or O is text.
    for (const key of ['\x1bOP', 'I', 'O', '[', '\x1b[1;5I', '[OO']) expect(focusReport(key)).toBeNull();
  });

  it('are asked for with the full screen and turned off on every way out of it', () => {
    const stdout = new FakeStdout(80, 24);
    const screen = TerminalScreen.enter(stdout as unknown as NodeJS.WriteStream, new FakeStdin() as never);
    const written = (): string => stdout.frames.join('');
    expect(written()).toContain(FOCUS_ON);
    screen.suspend();
    expect(written().lastIndexOf(FOCUS_OFF)).toBeGreaterThan(written().lastIndexOf(FOCUS_ON));
    screen.resume();
    expect(written().lastIndexOf(FOCUS_ON)).toBeGreaterThan(written().lastIndexOf(FOCUS_OFF));
    screen.restore();
    expect(written().lastIndexOf(FOCUS_OFF)).toBeGreaterThan(written().lastIndexOf(FOCUS_ON));
  });
});

describe('signal sequences', () => {
  it('OSC 9 is offered to the terminals that show it, inside tmux too', () => {
    for (const env of [
      { TERM_PROGRAM: 'iTerm.app' },
      { TERM_PROGRAM: 'WezTerm' },
      { TERM_PROGRAM: 'ghostty' },
      { TERM: 'xterm-kitty' },
      { TERM: 'foot' },
      { TERM: 'tmux-256color', TERM_PROGRAM: 'tmux', KITTY_WINDOW_ID: '3' },
    ])
      expect(showsOsc9(env)).toBe(true);
    for (const env of [{ TERM: 'xterm-256color' }, { TERM_PROGRAM: 'Apple_Terminal' }, { TERM: 'linux' }, {}])
      expect(showsOsc9(env)).toBe(false);
  });

  it('OSC 9 holds no control character and a short text, whatever it was given', () => {
    const seq = osc9(`tole: ${'\x1b]0;x\x07\r\n\u009c\t'.repeat(3)}${'a'.repeat(200)}`);
    const body = seq.slice('\x1b]9;'.length, -1);
    expect(seq.endsWith('\x07')).toBe(true);
    expect(body).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    expect(body.length).toBeLessThanOrEqual(80);
  });

  it('bell and OSC 9 each follow their setting', () => {
    expect(signalSequence('t', { bell: true, osc9: false }, true, null)).toBe('\x07');
    expect(signalSequence('t', { bell: false, osc9: true }, true, null)).toBe('\x1b]9;t\x07');
    expect(signalSequence('t', { bell: false, osc9: true }, false, null)).toBe('');
    expect(signalSequence('t', { bell: false, osc9: false }, true, 'tmux')).toBe('');
  });
});
