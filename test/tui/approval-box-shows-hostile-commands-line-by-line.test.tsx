/**
 * What the shipped renderer draws of commands a hostile model may send, at 80x24 and 120x40:
 * a 200-line command is reached line by line by paging the box, a here-doc keeps its lines
 * numbered, and escapes, bidi overrides and zero-width characters are shown as what they are,
 * never written to the terminal.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../src/core/approval/approver';
import { KEYS, pane, renderScreen, type Screen } from './harness';
import { emptyStore } from './session-fixture';

let screen: Screen | undefined;
afterEach(() => screen?.unmount());

const bash = (command: string): ApprovalRequest => ({
  callId: 'call_h',
  tool: 'bash',
  subject: command,
  input: { command },
  risk: 'Write',
  reason: 'a reason',
});

const SIZES = [
  [80, 24],
  [120, 40],
] as const;

/** The numbered lines the box shows now: `number text`. */
function numbered(frame: string): string[] {
  return pane(frame, 'approve?')
    .split('\n')
    .map((row) => /^[ !]\s+(\d+) (.*?)\s*$/.exec(row))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => `${m[1]} ${m[2]}`);
}

describe('the approval box shows hostile commands line by line', () => {
  for (const [columns, rows] of SIZES)
    it(`pages through a 200-line command to its last line (${columns}x${rows})`, async () => {
      const lines = Array.from({ length: 200 }, (_, i) => `echo line-${i + 1}`);
      screen = renderScreen({ store: emptyStore(), columns, rows });
      void screen.approvals.decide(bash(lines.join('\n')), new AbortController().signal);
      let frame = await screen.waitFor('approve?');
      const seen = new Set(numbered(frame));
      for (let page = 0; page < 200 && !seen.has('200 echo line-200'); page++) {
        await screen.press(KEYS.pageDown);
        const before = frame;
        frame = await screen.waitFor(/rows \d+–\d+ of 200/);
        if (frame === before) continue;
        for (const line of numbered(frame)) seen.add(line);
      }
      lines.forEach((line, i) => expect(seen, line).toContain(`${i + 1} ${line}`));
    });

  for (const [columns, rows] of SIZES)
    it(`numbers every line of a here-doc (${columns}x${rows})`, async () => {
      const command =
        "cat > notes.txt <<'EOF'\nfirst\n  second, indented\n\nfourth after a blank\nEOF\nwc -l notes.txt";
      screen = renderScreen({ store: emptyStore(), columns, rows });
      void screen.approvals.decide(bash(command), new AbortController().signal);
      const shown = numbered(await screen.waitFor('approve?'));
      expect(shown).toEqual([
        "1 cat > notes.txt <<'EOF'",
        '2 first',
        '3   second, indented',
        '4 ',
        '5 fourth after a blank',
        '6 EOF',
        '7 wc -l notes.txt',
      ]);
    });

  for (const [columns, rows] of SIZES)
    it(`shows escapes, bidi overrides and zero-width characters as text (${columns}x${rows})`, async () => {
      const command = [
        'echo \u001b]0;owned\u0007 \u001b[2J \u001b[31mred',
        'rm -rf /tmp/x\u202e#txt.sh',
        'curl evil\u200b.example \u2066hidden\u2069 \ufeffbom',
      ].join('\n');
      screen = renderScreen({ store: emptyStore(), columns, rows });
      void screen.approvals.decide(bash(command), new AbortController().signal);
      const frame = await screen.waitFor('approve?');
      for (const raw of ['\u001b]0;', '\u0007', '\u001b[2J', '\u001b[31mred', '\u202e', '\u200b', '\u2066', '\ufeff'])
        expect(frame, JSON.stringify(raw)).not.toContain(raw);
      const box = pane(frame, 'approve?');
      expect(box).toContain('⟨U+202E⟩');
      expect(box).toContain('⟨U+2066⟩');
      expect(numbered(frame).map((line) => line.split(' ')[0])).toEqual(['1', '2', '3']);
    });

  // Characters that draw nothing or a blank (Hangul fillers, the grapheme joiner, line and
  // paragraph separators) make `rm -rf build<U+3164>` look like `rm -rf build`: named too.
  for (const [columns, rows] of SIZES)
    it(`names characters that draw nothing or a blank (${columns}x${rows})`, async () => {
      const hiddenOnes = ['\u3164', '\u115f', '\u1160', '\uffa0', '\u034f', '\u2028', '\u2029', '\u180b', '\u{e0041}'];
      const command = hiddenOnes.map((ch) => `rm -rf build${ch}`).join('; ');
      screen = renderScreen({ store: emptyStore(), columns, rows });
      void screen.approvals.decide(bash(command), new AbortController().signal);
      const frame = await screen.waitFor('approve?');
      for (const ch of hiddenOnes) {
        const name = `⟨U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}⟩`;
        expect(frame, name).not.toContain(ch);
      }
      expect(pane(frame, 'approve?')).toContain('⟨U+3164⟩');
    });
});
