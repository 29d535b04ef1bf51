/**
 * An MCP or other tool call's arguments in the approval box: a key holding a hidden or reordering
 * character (`"path\u200b"` beside `path`, a Hangul filler, U+202E, U+2028) is shown with it named,
 * never drawn as the plain key; arguments nested deeper than the stack (`[[[…]]]` 20,000 deep,
 * which JSON.parse takes) are laid out, not thrown on, every line saying its depth past the
 * indentation drawn, and the cut past MAX_INPUT_LINES is said.
 */
import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../src/core/approval/approver';
import { approvalView } from '../../src/tui/approval/approval-lines';
import { pendingApproval } from '../../src/tui/approval/approval-queue';
import { inputLines, MAX_INDENT_DEPTH, MAX_INPUT_LINES } from '../../src/tui/approval/input-lines';
import { lineWidth } from '../../src/tui/style/styled-line';

const HIDDEN_IN_KEYS = [
  '\u200b',
  '\u200d',
  '\u2060',
  '\ufeff',
  '\u3164',
  '\u115f',
  '\u034f',
  '\u202e',
  '\u2066',
  '\u2028',
  '\u00ad',
  '\u{e0041}',
];

describe('the approval box shows every argument key as it is', () => {
  for (const ch of HIDDEN_IN_KEYS) {
    const code = ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
    it(`a key holding U+${code} is shown with it named`, () => {
      const lines = inputLines({ [`path${ch}`]: '/etc/passwd', path: '/tmp/safe' });
      expect(lines).toContain(`"path⟨U+${code}⟩": /etc/passwd`);
      expect(lines).toContain('path: /tmp/safe');
      for (const line of lines) expect(line).not.toContain(ch);
    });
  }

  it('a key holding controls or a line break is shown escaped, on one line', () => {
    const lines = inputLines({ 'k\u001b[2Jq': 1, 'a\nmode: safe': 2 });
    expect(lines).toEqual(['"k\\u001b[2Jq": 1', '"a\\nmode: safe": 2']);
  });

  it('plain keys and values stay as they were', () => {
    expect(inputLines({ path: 'a.txt', n: 3, list: ['x', { y: 'z' }], text: 'one\ntwo\n' })).toEqual([
      'path: a.txt',
      'n: 3',
      'list:',
      '  - x',
      '  -',
      '    y: z',
      'text: |',
      '  one',
      '  two',
    ]);
  });
});

describe('arguments nested at any depth', () => {
  for (const depth of [MAX_INDENT_DEPTH, MAX_INDENT_DEPTH + 1, 200, 20_000, 200_000]) {
    it(`${depth} deep: laid out without throwing, the innermost value shown or the cut said`, () => {
      const text = `{"a":${'['.repeat(depth)}"PAYLOAD"${']'.repeat(depth)}}`;
      const lines = inputLines(JSON.parse(text));
      if (depth + 1 <= MAX_INPUT_LINES) {
        const last = lines.at(-1)!;
        expect(last).toMatch(/- PAYLOAD$/);
        if (depth > MAX_INDENT_DEPTH) expect(last).toContain(`[d${depth}] - PAYLOAD`);
        else expect(last).toBe(`${'  '.repeat(depth)}- PAYLOAD`);
      } else {
        expect(lines).toHaveLength(MAX_INPUT_LINES + 1);
        expect(lines.at(-1)).toBe(`… the input goes on past ${MAX_INPUT_LINES} lines`);
      }
      for (const line of lines) expect(line.length).toBeLessThan(2 * MAX_INDENT_DEPTH + 40);
    });
  }
});

describe('the whole box for an MCP call nested deeper than the stack', () => {
  it('is laid out, its subject saying why it is not one line, every body line within the width', () => {
    const input = JSON.parse(`{"q":${'['.repeat(20_000)}"PAYLOAD"${']'.repeat(20_000)}}`) as Record<string, unknown>;
    const request: ApprovalRequest = {
      callId: 'call_m',
      tool: 'notes__search',
      subject: '(arguments nested too deep to write on one line)',
      input,
      risk: 'Write',
      reason: 'an MCP tool',
    };
    const view = approvalView(pendingApproval(request), 80);
    const body = view.body.map((line) => line.map((s) => s.text).join(''));
    expect(body[0]).toBe('(arguments nested too deep to write on one line)');
    expect(body.at(-1)).toBe(`… the input goes on past ${MAX_INPUT_LINES} lines`);
    for (const line of view.body) expect(lineWidth(line)).toBeLessThanOrEqual(80);
  });
});
