/**
 * Inside tmux (which repeats no `─`), a run of box-drawing characters goes out in the DEC special
 * graphics set: `ESC ( 0`, one ASCII byte a character, `ESC ( B`. The screen a terminal is left
 * with is cell for cell the one the plain writer leaves (a headless xterm), tmux holds the same
 * characters where the plain writer put them (a real tmux), and no other text is ever written
 * while the set is chosen. Runs too short to pay for the switch go out in UTF-8. Where tmux said it
 * repeats ASCII, a run of one character is its letter (or a space) and a REP.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { FrameWriter } from '../../src/tui/frame/frame-writer';
import { inLineSet } from '../../src/tui/frame/line-set';
import { ASCII_REPEAT_PROBE, drawsLineSet, RepeatProbe } from '../../src/tui/frame/repeat-probe';
import { lineSetRead, tmuxReplay } from '../support/tmux-replay';
import { FakeStdout } from './harness';
import { cells, flush, terminal, wholeDraw } from './xterm-screen';

const colour = new Chalk({ level: 3 });
const WIDTH = 40;
const HEIGHT = 6;
const ON = '\x1b(0';
const OFF = '\x1b(B';

/** A frame laid out as tole's panes are: rules with titles, a vertical rule between texts, a box. */
const PANES = [
  colour.ansi256(244)(`─ tree ${'─'.repeat(12)}┬ main ${'─'.repeat(13)}`),
  `${colour.ansi256(244)('no entries yet')}      ${colour.ansi256(244)('│')} ${colour.ansi256(252)('the reply text')}`,
  `${' '.repeat(20)}${colour.ansi256(244)('│')}`,
  `${' '.repeat(20)}${colour.ansi256(244)('├ registers ────────')}`,
  `┌──┐ ${colour.red('││││││')} ab ─ ─── ┼`,
  colour.bgAnsi256(235)(' ⠋ Idle · seq 0 ') + colour.ansi256(244)('────'),
].join('\n');

/** A second frame: the reply grows, the vertical rule's rows stay, the focus colours a rule. */
const PANES_AFTER = [
  colour.ansi256(75)(`─ tree ${'─'.repeat(12)}┬ main ${'─'.repeat(13)}`),
  `${colour.ansi256(244)('1 entry')}             ${colour.ansi256(244)('│')} ${colour.ansi256(252)('the reply text grows')}`,
  `${colour.ansi256(244)('abc')}${' '.repeat(17)}${colour.ansi256(244)('│')} ${colour.ansi256(252)('and wraps')}`,
  `${' '.repeat(20)}${colour.ansi256(244)('├ registers ────────')}`,
  `└──┘ ${colour.red('│││')} ab ─ ─── ┼`,
  colour.bgAnsi256(235)(' ⠙ Planning · seq 5 ') + colour.ansi256(244)('────'),
].join('\n');

function written(lineSet: boolean, repeats: boolean, frames: readonly string[]): Promise<string[]> {
  const out = new FakeStdout(WIDTH, HEIGHT);
  const writer = new FrameWriter(out as unknown as NodeJS.WriteStream);
  writer.drawLineSet(lineSet);
  const answer = Promise.resolve(repeats);
  writer.repeatsOnceAnswered(answer);
  return answer.then(() =>
    frames.map((frame) => {
      out.frames.length = 0;
      writer.stream.write(frame);
      return out.frames.join('');
    }),
  );
}

/** What is written while the graphics set is chosen: only its bytes, cursor moves and style codes. */
function insideTheSet(sent: string): string[] {
  const spans: string[] = [];
  let at = sent.indexOf(ON);
  while (at !== -1) {
    const end = sent.indexOf(OFF, at + ON.length);
    expect(end, 'every ESC ( 0 is closed by ESC ( B').toBeGreaterThan(at);
    spans.push(sent.slice(at + ON.length, end));
    at = sent.indexOf(ON, end);
  }
  return spans;
}

describe('box-drawing runs in the graphics set (inside tmux)', () => {
  it('a rule goes out one byte a character, and the screen is the one drawn whole', async () => {
    const [plain, plainAfter] = await written(false, false, [PANES, PANES_AFTER]);
    const [lined, linedAfter] = await written(true, false, [PANES, PANES_AFTER]);
    expect(lined).toContain(`${ON}${'q'.repeat(12)}w${OFF}`);
    expect(Buffer.byteLength(lined!)).toBeLessThan(Buffer.byteLength(plain!) - 50);
    for (const span of [...insideTheSet(lined!), ...insideTheSet(linedAfter!)]) {
      // Take out cursor moves (CSI codes, and CR, VT, BS and HT, which print nothing) and SGR codes:
      // what is left is the set's bytes alone.
      expect(span.replace(/\x1b\[[0-9;]*[A-Za-z@]|[\r\v\b\t]/g, '')).toMatch(/^[qxlkmjtuwvn]+$/);
    }
    expect(plain).not.toContain(ON);
    expect(plainAfter).not.toContain(ON);
    const term = terminal(WIDTH, HEIGHT);
    try {
      await flush(term, lined!);
      expect(cells(term)).toEqual(await wholeDraw(PANES, WIDTH, HEIGHT));
      await flush(term, linedAfter!);
      expect(cells(term)).toEqual(await wholeDraw(PANES_AFTER, WIDTH, HEIGHT));
    } finally {
      term.dispose();
    }
  });

  it('runs too short to pay for the switch are written in UTF-8', async () => {
    const [sent] = await written(true, false, ['─ ── ─── ┌┐']);
    expect(sent).toContain('─ ── ───');
    expect(sent).not.toContain(ON);
    // Four characters pay: 12 bytes in UTF-8 against 10 in the set.
    const [four] = await written(true, false, ['a ──── b']);
    expect(four).toContain(`${ON}qqqq${OFF}`);
  });

  it('the vertical rules left for the end of the frame go out together in the set', async () => {
    const rows = Array.from({ length: HEIGHT }, (_, i) =>
      i === 0
        ? colour.ansi256(244)('─'.repeat(WIDTH))
        : `${colour.ansi256(252)(`row ${i}`)}${' '.repeat(6)}${colour.ansi256(244)('│')}${colour.ansi256(252)(' text')}`,
    ).join('\n');
    const [lined] = await written(true, false, [rows]);
    const spans = insideTheSet(lined!);
    expect(spans.some((span) => (span.match(/x/g) ?? []).length === HEIGHT - 1)).toBe(true);
    const term = terminal(WIDTH, HEIGHT);
    try {
      await flush(term, lined!);
      expect(cells(term)).toEqual(await wholeDraw(rows, WIDTH, HEIGHT));
    } finally {
      term.dispose();
    }
  });

  it('takes cursor moves and style codes into a span, and nothing else', () => {
    // The blank rows under two panes: one span down the screen, 16 bytes a row instead of 20.
    const rows = [5, 6, 7].map((r) => `\x1b[${r};31H│\x1b[56C│`).join('');
    expect(inLineSet(rows)).toBe(`\x1b[5;31H${ON}x\x1b[56Cx\x1b[6;31Hx\x1b[56Cx\x1b[7;31Hx\x1b[56Cx${OFF}`);
    // Text, a space or a private-mode code ends a span; too short a span stays in UTF-8.
    expect(inLineSet('│ a │ b ───')).toBe('│ a │ b ───');
    expect(inLineSet('────a────')).toBe(`${ON}qqqq${OFF}a${ON}qqqq${OFF}`);
    expect(inLineSet('\x1b[?2026h──\x1b[?2026l──')).toBe('\x1b[?2026h──\x1b[?2026l──');
    // A rule with a mark joined to it is not the set's character; REP is not taken into a span.
    expect(inLineSet('───\u0301─')).toBe('───\u0301─');
    expect(inLineSet('──\x1b[5b──')).toBe('──\x1b[5b──');
    // Where tmux repeats ASCII: a run of one character is its letter and a REP where that is shorter.
    expect(inLineSet(`${'─'.repeat(20)}┬${'─'.repeat(4)}`, true)).toBe(`${ON}q\x1b[19bwqqqq${OFF}`);
    expect(inLineSet(`\x1b[2;5H${'│'.repeat(6)}\x1b[0m`, true)).toBe(`\x1b[2;5H${ON}x\x1b[5b${OFF}\x1b[0m`);
    // A frame holding any other escape (an OSC's text may hold a rule) is left whole.
    expect(inLineSet('\x1b]8;;http://a/│││││\x1b\\link\x1b]8;;\x1b\\ ─────')).toBe(
      '\x1b]8;;http://a/│││││\x1b\\link\x1b]8;;\x1b\\ ─────',
    );
  });

  it('where tmux said it repeats ASCII, a rule is its letter and a REP, and background spaces a space and a REP', async () => {
    const [plain] = await written(true, false, [PANES]);
    const [sent, after] = await written(true, true, [PANES, PANES_AFTER]);
    expect(sent).toContain(`${ON}q\x1b[11bw${OFF}`);
    expect(sent).toContain(`${ON}q\x1b[12b${OFF}`);
    // No REP of a character tmux does not repeat (anything not ASCII outside the set).
    expect(sent).not.toMatch(/[^\x00-\x7f]\x1b\[\d+b/);
    expect(Buffer.byteLength(sent!)).toBeLessThan(Buffer.byteLength(plain!));
    const wide = await written(true, true, [colour.bgAnsi256(235)(`${' '.repeat(30)}x`)]);
    expect(wide[0]).toContain(' \x1b[29b');
    const term = terminal(WIDTH, HEIGHT);
    try {
      await flush(term, sent!);
      expect(cells(term)).toEqual(await wholeDraw(PANES, WIDTH, HEIGHT));
      await flush(term, after!);
      expect(cells(term)).toEqual(await wholeDraw(PANES_AFTER, WIDTH, HEIGHT));
    } finally {
      term.dispose();
    }
  });

  it('is used inside tmux only, and not with repeatRuns: false', () => {
    expect(drawsLineSet({ TMUX: '/tmp/tmux-0/default,1,0' }, undefined)).toBe(true);
    expect(drawsLineSet({ TMUX: '/tmp/tmux-0/default,1,0' }, true)).toBe(true);
    expect(drawsLineSet({ TMUX: '/tmp/tmux-0/default,1,0' }, false)).toBe(false);
    expect(drawsLineSet({ TERM: 'tmux-256color' }, undefined)).toBe(false);
    expect(drawsLineSet({}, undefined)).toBe(false);
  });

  it('a real tmux holds the same characters where the plain writer put them, and copies them as UTF-8', async () => {
    const tmux = tmuxReplay('tole-line-set', WIDTH, HEIGHT);
    /** The pane's cells after `bytes`, each graphics-set span read as its characters, and the copied text. */
    const shown = (name: string, bytes: string): { screen: string; copied: string } => {
      // Style codes are not compared here (the headless xterm above compares every cell's style).
      const screen = lineSetRead(tmux.replay(name, bytes)).replace(/\x1b\[[0-9;]*m/g, '');
      return { screen, copied: tmux.copied(name) };
    };
    const [plain] = await written(false, false, [PANES]);
    const [lined] = await written(true, false, [PANES]);
    expect(lined).toContain(ON);
    const [repeated] = await written(true, true, [PANES]);
    expect(repeated).toContain('q\x1b[11b');
    const a = shown('plain', plain!);
    const b = shown('lined', lined!);
    const c = shown('repeated', repeated!);
    expect(b.screen).toBe(a.screen);
    expect(b.copied).toBe(a.copied);
    expect(c.screen).toBe(a.screen);
    expect(c.copied).toBe(a.copied);
    expect(b.copied).toContain(`─ tree ${'─'.repeat(12)}┬ main`);
  });

  it('the ASCII question: a real tmux answers yes, and is left blank with ASCII chosen', async () => {
    const tmux = tmuxReplay('tole-line-set-probe', WIDTH, HEIGHT);
    // Inside the pane: ask, keep the answer, then write a plain q (drawn as ─ if the set were left chosen).
    const script = join(tmux.dir, 'ask.cjs');
    const answerFile = join(tmux.dir, 'answer.txt');
    writeFileSync(
      script,
      `process.stdin.setRawMode(true);
process.stdin.once('data', (d) => {
  require('node:fs').writeFileSync(${JSON.stringify(answerFile)}, d);
  process.stdout.write('q', () => require('node:child_process').execFileSync('tmux', ['-S', ${JSON.stringify(tmux.socket)}, 'wait-for', '-S', 'asked']));
});
process.stdout.write(${JSON.stringify(ASCII_REPEAT_PROBE)});
`,
    );
    tmux.run('probe', `'${process.execPath}' '${script}'; exec cat`);
    tmux.tmux('wait-for', 'asked');
    const probe = new RepeatProbe();
    expect(probe.take(readFileSync(answerFile, 'utf8'))).toBe(true);
    expect(await probe.answer).toBe(true);
    const raw = tmux.tmux('capture-pane', '-p', '-e', '-t', 'probe');
    expect(raw).not.toContain('\x0e');
    expect(raw.split('\n')[0]).toBe('q');
    expect(raw.replace(/\s/g, '')).toBe('q');
  });
});
