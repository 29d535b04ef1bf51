/**
 * The approval box's lines for any command a model may send: multi-line, tabbed, holding CRs,
 * escapes and other controls. No row is wider than the box, no control reaches the terminal,
 * every line of the command is in the body, and at any height the head and the keys stay while
 * scrolling reaches every body line.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../src/core/approval/approver';
import { REACH_START, vettingOutcome } from '../../src/core/approval/unconfined-vetting';
import { approvalView, fitApproval, type ApprovalView } from '../../src/tui/approval/approval-lines';
import { pendingApproval } from '../../src/tui/approval/approval-queue';
import { lineWidth, type Line } from '../../src/tui/style/styled-line';
import sanitizeAnsi from '../../src/tui/frame/ink-sanitize-ansi';
import { visibleControls, visibleLines, visibleRow } from '../../src/tui/text/visible-text';
import { fcRuns } from '../support/fc-runs';

/** A share of TOLE_FC_RUNS (fc-runs.ts): each case lays out a whole approval box. */
const RUNS = fcRuns(0.6);

const text = (line: Line): string => line.map((s) => s.text).join('');

function bash(command: string, risk: ApprovalRequest['risk'] = 'Destructive'): ApprovalRequest {
  return {
    callId: 'call_p',
    tool: 'bash',
    subject: command,
    input: { command },
    risk,
    reason: 'the command cannot be parsed, so it is treated as Destructive',
    runs: 'there is no sandbox on this machine: it runs with your full access',
  };
}

const piece = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.constantFrom(
    '\t',
    '\r',
    '\x1b[2J',
    '\x1b]0;owned\x07',
    '\x00',
    '\x7f',
    '\x9b',
    '\u202e',
    'rm -rf /',
    '\r\n',
    '2\u20e3>x',
    '\ufe0f',
    '👍🏽',
    '❤️',
  ),
  fc.string({ unit: fc.constantFrom('a', ' ', '\t', '\r', '\x1b', 'é', '字', '🙂'), maxLength: 80 }),
);
const command = fc
  .array(
    fc.array(piece, { maxLength: 6 }).map((parts) => parts.join('')),
    { minLength: 1, maxLength: 40 },
  )
  .map((lines) => lines.join('\n'));

/** The body's rows grouped by the command line they show: a row with a number in its gutter starts one. */
function bodyByLine(view: ApprovalView, count: number): string[] {
  const gutter = String(count).length + 3;
  const lines: string[] = [];
  for (const row of view.body) {
    const t = text(row);
    const number = t.slice(0, gutter).trim().replace(/^!\s*/, '');
    if (number !== '') lines[Number(number) - 1] = t.slice(gutter);
    else lines[lines.length - 1] += t.slice(gutter);
  }
  return lines;
}

describe('the approval box', () => {
  it('names the sub-agent that asks, in its head, at any width', () => {
    const asked = { ...bash('rm -rf build'), agent: 'sub-agent reviewer (session 1796-abcdef)' };
    for (const width of [30, 80]) {
      const view = approvalView(pendingApproval(asked), width);
      expect(text(view.head[1]!)).toBe(
        'asked by sub-agent reviewer (session 1796-abcdef)'.slice(0, width - 1) + (width < 50 ? '…' : ''),
      );
      expect(fitApproval(view, 6, 0).lines.map(text)).toContain(text(view.head[1]!));
    }
    expect(approvalView(pendingApproval(bash('rm -rf build')), 80).head).toHaveLength(1);
  });

  it('keeps every row within its width, shows no control as it is, and holds every line of the command', () => {
    fc.assert(
      fc.property(command, fc.integer({ min: 20, max: 160 }), (cmd, width) => {
        const view = approvalView(pendingApproval(bash(cmd)), width);
        const lines = cmd.split('\n');
        for (const row of [...view.head, ...view.body, ...view.foot, ...(view.note ? [view.note] : [])]) {
          expect(lineWidth(row)).toBeLessThanOrEqual(width);
          expect(text(row)).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202e]/);
          // What the screen draws of the row is the row: nothing in it is left out on the way.
          expect(sanitizeAnsi(text(row))).toBe(text(row));
        }
        const shown = bodyByLine(view, lines.length);
        expect(shown).toHaveLength(lines.length);
        lines.forEach((line, i) => {
          expect(shown[i]!.replace(/\s/g, '')).toBe(visibleControls(line).replace(/\s/g, ''));
        });
      }),
      { numRuns: RUNS },
    );
  });

  it('at any height keeps the head and the keys, and scrolling from the top to the end shows every body line', () => {
    fc.assert(
      fc.property(command, fc.integer({ min: 56, max: 156 }), fc.integer({ min: 9, max: 45 }), (cmd, width, height) => {
        const view = approvalView(pendingApproval(bash(cmd)), width);
        const first = fitApproval(view, height, 0);
        const reached = new Set<Line>();
        for (let top = 0; ; top += 1) {
          const fitted = fitApproval(view, height, top);
          expect(fitted.lines.length).toBeLessThanOrEqual(height);
          expect(fitted.lines[0]).toBe(view.head[0]);
          const all = fitted.lines.map(text).join('\n');
          expect(all).toContain('y approve once');
          expect(all).toContain('Esc stop the turn');
          for (const row of fitted.lines) if (view.body.includes(row)) reached.add(row);
          if (fitted.top + fitted.page >= view.body.length) break;
          expect(fitted.position).toMatch(/^rows \d+–\d+ of \d+$/);
        }
        expect(reached.size).toBe(view.body.length);
        if (view.body.length > first.page) expect(first.position).toBe(`rows 1–${first.page} of ${view.body.length}`);
      }),
      { numRuns: RUNS },
    );
  });

  it('at 56 columns and 12 rows (a 60x20 screen) keeps why, where it runs and the keys whole', () => {
    const script = ['set -e', ...Array.from({ length: 30 }, (_, i) => `mkdir -p out/d${i}`), 'rm -rf out/d1'].join(
      '\n',
    );
    const request = { ...bash(script), reason: '`rm -r` removes a directory tree' };
    const fitted = fitApproval(approvalView(pendingApproval(request), 56), 12, 0);
    const all = fitted.lines.map(text).join('\n');
    expect(all).toContain('why: `rm -r` removes a directory tree');
    expect(all).toContain('runs: there is no sandbox on this machine: it runs with');
    expect(all).toContain('your full access');
    expect(fitted.lines.filter((l) => view(l) === 'body').length).toBeGreaterThanOrEqual(2);

    function view(line: Line): 'body' | 'other' {
      return /^[! ] +\d+ /.test(text(line)) ? 'body' : 'other';
    }
  });

  it('marks the lines that hold a Destructive part, and only those', () => {
    const script = ['set -e', 'echo "making d1" && mkdir -p out/d1', 'rm -rf \\', '  out/d1', 'ls'].join('\n');
    const pending = pendingApproval({ ...bash(script), reason: '`rm -r` removes a directory tree' });
    expect([...pending.marked].sort()).toEqual([2, 3]);
    const marked = approvalView(pending, 80)
      .body.map(text)
      .filter((t) => t.startsWith('!'));
    expect(marked).toEqual(['! 3 rm -rf \\', '! 4   out/d1']);
  });

  it('shows a carriage return (a terminal would draw `rm -rf` over the echo) and a bidi override as what they are', () => {
    // Line 2 only echoes (bash reads the CR as part of a word): shown whole, not marked; line 3 removes.
    const script = ['echo building', 'echo all done\rrm -rf ~/src', 'ls \u202e; rm -rf out'].join('\n');
    const pending = pendingApproval({ ...bash(script), reason: '`rm -r` removes a directory tree' });
    const rows = approvalView(pending, 80).body.map(text);
    expect(rows).toEqual(['  1 echo building', '  2 echo all done␍rm -rf ~/src', '! 3 ls ⟨U+202E⟩; rm -rf out']);
  });

  it('shows the emoji parts the screen leaves out as what they are: a keycap mark makes 2>/dev/null an argument', () => {
    const script = ['rm -f notes.txt 2\u20e3>/dev/null', 'echo ok\ufe0f 👍🏽'].join('\n');
    const rows = approvalView(pendingApproval(bash(script)), 80).body.map((row) => sanitizeAnsi(text(row)).slice(4));
    expect(rows).toEqual(['rm -f notes.txt 2⟨U+20E3⟩>/dev/null', 'echo ok⟨U+FE0F⟩ 👍⟨U+1F3FD⟩']);
  });

  it('a warning taller than the box at any height: the keys stay, and scrolling reaches every line of the box', () => {
    const finding = fc
      .tuple(fc.constantFrom('runs ssh', 'runs tmux', 'runs sudo', 'runs a login shell'), fc.string({ maxLength: 40 }))
      .map(([what, why]) => `${REACH_START}${what}${why === '' ? '' : `, which ${why}`}`);
    fc.assert(
      fc.property(
        fc.array(finding, { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 56, max: 156 }),
        fc.integer({ min: 9, max: 45 }),
        (unvouched, width, height) => {
          const vetting = { unvouched, outcome: 'warned' as const };
          const request = { ...bash('ssh host uptime', 'Write'), vetting, runs: vettingOutcome(vetting) };
          const view = approvalView(pendingApproval(request), width);
          const keys = view.foot.slice(-(view.keyRows ?? 1));
          const reached = new Set<Line>();
          for (let top = 0; ; top += 1) {
            const fitted = fitApproval(view, height, top);
            expect(fitted.lines.length).toBeLessThanOrEqual(height);
            expect(fitted.lines[0]).toBe(view.head[0]);
            for (const key of keys) expect(fitted.lines).toContain(key);
            for (const row of fitted.lines) reached.add(row);
            if (fitted.top + fitted.page >= fitted.bodyLength) break;
            expect(fitted.position).toBe(`rows ${fitted.top + 1}–${fitted.top + fitted.page} of ${fitted.bodyLength}`);
          }
          for (const row of [...view.head, ...view.body, ...view.foot]) expect(reached).toContain(row);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('marks every line when no line alone is Destructive (the part spans a heredoc)', () => {
    const script = ['bash <<EOF', 'echo hi', 'EOF'].join('\n');
    const pending = pendingApproval({
      ...bash(script),
      reason: 'a shell reads its commands from input tole cannot see',
    });
    expect(pending.marked.size).toBe(3);
  });
});

describe('text shown as what it is', () => {
  it('breaks lines at line breaks and names tabs, CRs, escapes, controls and hidden characters', () => {
    expect(visibleLines('a\nb')).toEqual(['a', 'b']);
    expect(visibleControls('a\tb')).toBe('a→  b');
    expect(visibleControls('safe\rrm -rf /')).toBe('safe␍rm -rf /');
    expect(visibleControls('\x1b[2Jx')).toBe('␛[2Jx');
    expect(visibleControls('\x00\x07\x7f\x9b')).toBe('␀␇␡⟨U+009B⟩');
    expect(visibleControls('ls \u202Efdp.exe')).toBe('ls ⟨U+202E⟩fdp.exe');
    expect(visibleControls('a\u200Bb')).toBe('a⟨U+200B⟩b');
    expect(visibleRow('set -e\nrm -rf out')).toBe('set -e⏎rm -rf out');
  });
});
