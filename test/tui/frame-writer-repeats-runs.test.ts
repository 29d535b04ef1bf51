/**
 * Where the terminal said it repeats characters (REP, `CSI n b`), a run of one character in one
 * style goes out as the character and a REP; the screen a terminal is left with is cell for cell
 * the one the plain writer leaves. Where it did not say so (no answer, a no, or no question
 * asked), nothing is repeated. The question itself (src/tui/frame/repeat-probe.ts) is read from
 * the terminal's position report, and a headless xterm, which repeats, answers yes.
 */
import { PassThrough } from 'node:stream';
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { FrameWriter } from '../../src/tui/frame/frame-writer';
import { asksRepeats, REPEAT_PROBE, RepeatProbe } from '../../src/tui/frame/repeat-probe';
import { keyedStdin } from '../../src/tui/input/key-chunks';
import { FakeStdout } from './harness';
import { cells, flush, terminal, wholeDraw } from './xterm-screen';

const colour = new Chalk({ level: 3 });
const WIDTH = 40;
const HEIGHT = 6;

/** A writer whose terminal has answered `repeats`, and what it sent. */
async function writer(repeats: boolean): Promise<{ writer: FrameWriter; out: FakeStdout }> {
  const out = new FakeStdout(WIDTH, HEIGHT);
  const frames = new FrameWriter(out as unknown as NodeJS.WriteStream);
  const answer = Promise.resolve(repeats);
  frames.repeatsOnceAnswered(answer);
  await answer;
  return { writer: frames, out };
}

const RULED = [
  colour.ansi256(244)(`─ tree ${'─'.repeat(12)}┬ main ${'─'.repeat(13)}`),
  `${colour.ansi256(244)('│')} aaaaaaaaaaaa ${colour.bgAnsi256(235)('            ')}x`,
  colour.bold('════') + colour.dim('════'),
  '中中中中中中 ' + colour.red('!!!!!!!!') + ' •••••• ab',
  colour.ansi256(244)('─'.repeat(WIDTH)),
  'e\u0301e\u0301e\u0301e\u0301 uncertain, written whole',
].join('\n');

describe('runs of one character with REP', () => {
  it('a rule goes out as its character and a REP, and the screen is the one drawn whole', async () => {
    const { writer: frames, out } = await writer(true);
    frames.stream.write(RULED);
    const sent = out.frames.join('');
    expect(sent).toContain('─\x1b[11b');
    expect(sent).toContain('─\x1b[12b');
    expect(sent).toContain('─\x1b[39b');
    // Plain spaces are erased, not repeated; spaces with a background are repeated like any cell.
    expect(sent).toContain(' \x1b[11b');
    expect(sent).toContain('a\x1b[11b');
    expect(sent).toContain('•\x1b[5b');
    expect(sent).toContain('!\x1b[7b');
    // A run in one style only; a wide character and a letter with its accent are never repeated.
    expect(sent.match(/═\x1b\[3b/g)?.length).toBe(2);
    expect(sent).not.toContain('═\x1b[7b');
    expect(sent).toContain('中中中中中中');
    expect(sent).toContain('e\u0301e\u0301e\u0301e\u0301');
    const term = terminal(WIDTH, HEIGHT);
    try {
      await flush(term, sent);
      expect(cells(term)).toEqual(await wholeDraw(RULED, WIDTH, HEIGHT));
    } finally {
      term.dispose();
    }
  });

  it('a run too short to pay for its REP is written out', async () => {
    const { writer: frames, out } = await writer(true);
    frames.stream.write(`──  aaaaa  ${'─'.repeat(9)}`);
    const sent = out.frames.join('');
    // Two 3-byte rules (6 B) against `─` and `ESC[1b` (7 B); five letters against `a` and `ESC[4b`.
    expect(sent).toContain('──');
    expect(sent).toContain('aaaaa');
    expect(sent).toContain('─\x1b[8b');
  });

  it('a terminal that said no, and one not asked, get every character', async () => {
    const { writer: refused, out } = await writer(false);
    refused.stream.write(RULED);
    expect(out.frames.join('')).not.toMatch(/\x1b\[\d+b/);
    const plainOut = new FakeStdout(WIDTH, HEIGHT);
    const plain = new FrameWriter(plainOut as unknown as NodeJS.WriteStream);
    plain.stream.write(RULED);
    expect(plainOut.frames.join('')).not.toMatch(/\x1b\[\d+b/);
    expect(plainOut.frames.join('')).toBe(out.frames.join(''));
  });

  it('the first frame goes out at once and plain, before any answer; REP from the frame after a yes', async () => {
    const out = new FakeStdout(WIDTH, HEIGHT);
    const frames = new FrameWriter(out as unknown as NodeJS.WriteStream);
    let answer!: (repeats: boolean) => void;
    const answered = new Promise<boolean>((resolve) => (answer = resolve));
    frames.repeatsOnceAnswered(answered);
    const first = `first ${'─'.repeat(30)}`;
    frames.stream.write(first);
    // On the terminal before the answer was sent: nothing waits for it.
    const before = out.frames.join('');
    expect(before).toContain(first);
    expect(before).not.toMatch(/\x1b\[\d+b/);
    answer(true);
    await answered;
    // The answer draws nothing itself: the frame on the screen stays as it was.
    expect(out.frames.join('')).toBe(before);
    const second = `${first}\n${'═'.repeat(30)}`;
    frames.stream.write(second);
    const after = out.frames.join('').slice(before.length);
    expect(after).toContain('═\x1b[29b');
    // The rows drawn plain and those drawn with REP leave the screen a whole redraw leaves.
    const term = terminal(WIDTH, HEIGHT);
    try {
      await flush(term, out.frames.join(''));
      expect(cells(term)).toEqual(await wholeDraw(second, WIDTH, HEIGHT));
    } finally {
      term.dispose();
    }
  });

  it('a terminal that never answers gets every frame at once, plain; after a no, none is repeated', async () => {
    const silent = new FakeStdout(WIDTH, HEIGHT);
    const unanswered = new FrameWriter(silent as unknown as NodeJS.WriteStream);
    unanswered.repeatsOnceAnswered(new Promise<boolean>(() => {}));
    unanswered.stream.write('─'.repeat(30));
    expect(silent.frames.join('')).toContain('─'.repeat(30));
    unanswered.stream.write(`${'─'.repeat(30)}\n${'═'.repeat(30)}`);
    expect(silent.frames.join('')).toContain('═'.repeat(30));
    expect(silent.frames.join('')).not.toMatch(/\x1b\[\d+b/);

    const refusing = new FakeStdout(WIDTH, HEIGHT);
    const refused = new FrameWriter(refusing as unknown as NodeJS.WriteStream);
    let answer!: (repeats: boolean) => void;
    const answered = new Promise<boolean>((resolve) => (answer = resolve));
    refused.repeatsOnceAnswered(answered);
    refused.stream.write('─'.repeat(30));
    expect(refusing.frames.join('')).toContain('─'.repeat(30));
    answer(false);
    await answered;
    refused.stream.write(`${'─'.repeat(30)}\n${'═'.repeat(30)}`);
    expect(refusing.frames.join('')).toContain('═'.repeat(30));
    expect(refusing.frames.join('')).not.toMatch(/\x1b\[\d+b/);
  });
});

describe('the question to the terminal', () => {
  it('a position report past the repeats is a yes, one short of them a no, and only the first counts', async () => {
    const yes = new RepeatProbe();
    expect(yes.take('\x1b[A')).toBe(false);
    expect(yes.take('4')).toBe(false);
    expect(yes.take('\x1b[1;4R')).toBe(true);
    expect(yes.take('\x1b[1;2R')).toBe(false);
    expect(await yes.answer).toBe(true);
    // `─` drawn two columns wide by the terminal: 1 + 3 × 2.
    const wide = new RepeatProbe();
    wide.take('\x1b[1;7R');
    expect(await wide.answer).toBe(true);
    for (const column of [2, 3]) {
      const no = new RepeatProbe();
      expect(no.take(`\x1b[1;${column}R`)).toBe(true);
      expect(await no.answer).toBe(false);
    }
  });

  it('a headless xterm answers yes, and is left with a blank screen', async () => {
    const term = terminal(WIDTH, HEIGHT);
    try {
      const replies: string[] = [];
      term.onData((data) => replies.push(data));
      await flush(term, `\x1b[2J\x1b[H${REPEAT_PROBE}`);
      const probe = new RepeatProbe();
      expect(replies.length).toBe(1);
      expect(probe.take(replies[0]!)).toBe(true);
      expect(await probe.answer).toBe(true);
      expect(cells(term)).toEqual(await wholeDraw('', WIDTH, HEIGHT));
    } finally {
      term.dispose();
    }
  });

  it('the answer is taken out of the keys Ink reads; the keys around it are not', async () => {
    const stdin = new PassThrough() as PassThrough & NodeJS.ReadStream;
    stdin.setEncoding('utf8');
    const probe = new RepeatProbe();
    const keyed = keyedStdin(stdin, undefined, (key) => probe.take(key));
    const keys: unknown[] = [];
    keyed.addListener('readable', () => {
      for (let chunk = keyed.read(); chunk !== null; chunk = keyed.read()) keys.push(chunk);
    });
    stdin.write('a\x1b[1;4Rb\x1b[1;2R');
    expect(await probe.answer).toBe(true);
    await until(() => keys.length === 3);
    // A second report is a key (Shift-F3, as xterm sends it): tole asked one question.
    expect(keys).toEqual(['a', 'b', '\x1b[1;2R']);
  });

  it('is asked unless the config says no (inside tmux, of ASCII: tmux repeats ASCII only)', () => {
    expect(asksRepeats({}, undefined)).toBe(true);
    expect(asksRepeats({}, true)).toBe(true);
    expect(asksRepeats({}, false)).toBe(false);
    // Inside tmux the question is whether ASCII is repeated (ASCII_REPEAT_PROBE), asked all the same.
    expect(asksRepeats({ TMUX: '/tmp/tmux-1000/default,1,0' }, undefined)).toBe(true);
    expect(asksRepeats({ TMUX: '/tmp/tmux-1000/default,1,0' }, false)).toBe(false);
  });
});

async function until(test: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !test(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(test()).toBe(true);
}
