import type { PendingApproval } from './approval-queue';
import { spread } from './entry-lines';
import { seg, truncateLine, wrapLine, type Line, type Segment } from './styled-line';

/** Lines of the call's input shown in the prompt; the rest is counted, not hidden silently. */
export const MAX_INPUT_LINES = 14;

function inputText(input: unknown): string {
  try {
    return JSON.stringify(input, null, 2) ?? String(input);
  } catch {
    return String(input);
  }
}

/** False when the input is just the subject again (`{"command": "rm -rf build/"}` under `rm -rf build/`). */
function addsToSubject(input: unknown, subject: string): boolean {
  if (input === null || typeof input !== 'object') return String(input) !== subject;
  // An MCP call's subject is its arguments on one line: shown once.
  if (JSON.stringify(input) === subject) return false;
  const values = Object.values(input as Record<string, unknown>);
  return !(values.length === 1 && values[0] === subject);
}

/** The body of the approval prompt: tool and risk, the subject, the full input, why, and the keys. */
export function approvalLines(pending: PendingApproval, width: number): Line[] {
  const { request, offersAllow } = pending;
  const destructive = request.risk === 'Destructive';
  const lines: Line[] = [
    spread([seg(request.tool, 'toolName')], [seg(destructive ? ' Destructive ' : request.risk, request.risk)], width),
    ...wrapLine([seg(request.subject, 'strong')], width, [seg('  ')]),
  ];
  const input = inputText(request.input).split('\n');
  if (addsToSubject(request.input, request.subject)) {
    for (const text of input.slice(0, MAX_INPUT_LINES)) lines.push(truncateLine([seg(text, 'codeBlock')], width));
    if (input.length > MAX_INPUT_LINES)
      lines.push([seg(`… ${input.length - MAX_INPUT_LINES} more lines of input`, 'faint')]);
  }
  if (request.reason)
    lines.push(
      ...wrapLine([seg('why: ', 'muted'), seg(request.reason, destructive ? 'danger' : 'text')], width, [seg('     ')]),
    );
  if (request.runs)
    lines.push(...wrapLine([seg('runs: ', 'muted'), seg(request.runs, 'text')], width, [seg('      ')]));
  lines.push([]);
  const keys: Segment[] = [seg('y', 'accentBold'), seg(' approve once    '), seg('n', 'accentBold'), seg(' deny    ')];
  if (offersAllow) keys.push(seg('a', 'accentBold'), seg(` allow ${request.tool} for this session    `));
  keys.push(seg('Esc', 'accentBold'), seg(' stop the turn'));
  lines.push(truncateLine(keys, width));
  if (destructive)
    lines.push(truncateLine([seg('Destructive: always asked; --yes and allow rules do not apply', 'danger')], width));
  return lines;
}
