import type { Decision } from '../../core/approval/approver';
import { malformedAttachmentsMessage, userAttachmentsProblem } from '../../core/tree/user-attachments-problem';
import { attachmentNote } from '../../core/session/user-attachments';
import type { AnyEntry, Entry } from '../../core/tree/entry-types';
import { diffLines, diffStat } from './diff-lines';
import { CHECKPOINT_MARK, resultGlyph, subAgentOf } from '../tree/entry-glyph';
import { counted, formatBytes, formatMs, formatTokens, oneLine, utf8Bytes } from '../text/format';
import { markdownLines } from '../text/markdown-lines';
import { visibleLines } from '../text/visible-text';
import { isPassingHookNotice } from './folded-notices';
import { lineWidth, seg, truncateLine, wrapLine, type Line, type Segment } from '../style/styled-line';

/** Lines of tool output shown under a call (what the model reads can be far longer). */
const MAX_OUTPUT_LINES = 6;
const INDENT = '    ';

/** `left` and `right` on one line, `right` flush with the edge; `left` gives way when both do not fit. */
export function spread(left: readonly Segment[], right: readonly Segment[], width: number): Line {
  const rightWidth = lineWidth(right);
  if (rightWidth >= width) return truncateLine(left, width);
  const room = right.length === 0 ? width : width - rightWidth - 1;
  const cutLeft = truncateLine(left, room);
  const gap = width - lineWidth(cutLeft) - rightWidth;
  return gap > 0 ? [...cutLeft, seg(' '.repeat(gap)), ...right] : [...cutLeft, ...right];
}

function userLines(entry: Entry<'user'>, width: number): Line[] {
  const { text, blocked, steered } = entry.payload;
  const who: Line = steered
    ? [seg('● you', 'user'), seg('  ↳ steered into the running turn', 'faint')]
    : [seg('● you', 'user')];
  const lines: Line[] = [[], who, ...markdownLines(text, width), ...attachmentLines(entry, width)];
  if (blocked)
    lines.push(
      ...wrapLine([seg('⊘ blocked by a hook, not sent to the model: ', 'warn'), seg(blocked, 'text')], width, [
        seg('  '),
      ]),
    );
  return lines;
}

/** One line per attached file: its path and size (a cut one says so); a malformed field says what is wrong instead. */
function attachmentLines(entry: Entry<'user'>, width: number): Line[] {
  const problem = userAttachmentsProblem(entry);
  if (problem !== null)
    return wrapLine([seg('⚠ ', 'warn'), seg(malformedAttachmentsMessage(entry.id, problem), 'warn')], width, [
      seg('  '),
    ]);
  return (entry.payload.attachments ?? []).map((attachment) =>
    truncateLine(
      [
        seg('  ⎘ attached ', 'faint'),
        seg(visibleLines(attachment.path).join(' '), 'muted'),
        seg(`  ${attachmentNote(attachment)}`, 'faint'),
      ],
      width,
    ),
  );
}

function assistantLines(entry: Entry<'assistant'>, width: number): Line[] {
  const { text, reasoning, refusal, model, finishReason } = entry.payload;
  const out: Line[] = [];
  if (text || reasoning || refusal) out.push([], spread([seg('◆ tole', 'assistant')], [seg(model, 'faint')], width));
  if (reasoning) out.push(truncateLine([seg('✻ ', 'muted'), seg(oneLine(reasoning), 'quote')], width));
  if (text) out.push(...markdownLines(text, width));
  if (refusal) out.push(...refusalLines(refusal, width));
  if (finishReason === 'interrupted' || finishReason === 'error' || finishReason === 'length') {
    out.push([seg(`  (${finishReason === 'length' ? 'cut off: output limit reached' : finishReason})`, 'muted')]);
  }
  return out;
}

/** The model declined: its words, marked so that they never read as an ordinary answer. */
export function refusalLines(refusal: string, width: number): Line[] {
  return [
    [seg('⊘ the model declined to answer', 'warn')],
    ...refusal.split('\n').flatMap((line) => wrapLine([seg('  '), seg(line, 'quote')], width, [seg('  ')])),
  ];
}

function intentLines(entry: Entry<'tool_intent'>, width: number): Line[] {
  const { tool, subject, risk, reason, approval, checkpoint } = entry.payload;
  const right: Segment[] = [seg(risk === 'Destructive' ? ' Destructive ' : risk, risk)];
  if (checkpoint) right.unshift(seg(`${CHECKPOINT_MARK} `, 'accent'));
  if (approval?.approved && approval.by !== 'policy')
    right.unshift(seg(`auto-approved (${autoApprovedBy(approval)}) · `, 'faint'));
  // Each line of a multi-line command on a line of its own; controls in it shown, never sent.
  const subjectLines = wrapLine([seg(visibleLines(subject).join('\n'), 'text')], Math.max(10, width - 4));
  // A `!command` the user typed reads as theirs, as a prompt does.
  const head: Segment[] =
    entry.payload.by === 'user'
      ? [seg('● you  ', 'user'), seg('!', 'accent')]
      : [seg('⚙ ', 'tool'), seg(tool, 'toolName'), seg('  ')];
  const first = spread([...head, ...(subjectLines.length === 1 ? subjectLines[0]! : [])], right, width);
  const out: Line[] = entry.payload.by === 'user' ? [[], first] : [first];
  if (subjectLines.length > 1) out.push(...subjectLines.map((l) => [seg(INDENT), ...l]));
  if (risk === 'Destructive')
    out.push(...wrapLine([seg(INDENT), seg(`why: ${reason}`, 'muted')], width, [seg(INDENT)]));
  const child = subAgentOf(entry.payload);
  if (child !== null)
    out.push(
      ...wrapLine(
        [
          seg(INDENT),
          seg(`sub-agent session ${child}`, 'accent'),
          seg(` · tole --resume ${child} --read-only`, 'faint'),
        ],
        width,
        [seg(INDENT)],
      ),
    );
  return out;
}

/** Who approved a call without a keypress, as the transcript says it: `--yes`, a rule, a prefix. */
function autoApprovedBy(approval: Decision & { approved: true }): string {
  if (approval.by === 'yes') return '--yes';
  if (approval.by === 'prefix') return `prefix ${approval.rule ?? ''}`;
  return approval.by;
}

function approvalLines(entry: Entry<'approval'>, width: number): Line[] {
  const { decision, checkpoint } = entry.payload;
  const mark: Segment[] = checkpoint ? [seg(`  ${CHECKPOINT_MARK} checkpoint`, 'accent')] : [];
  if (decision.approved) {
    // A key that approved the call only to run in the sandbox (tole vetted it before asking).
    const confined = decision.confined ? [seg(' to run in the sandbox', 'ok')] : [];
    const approved: Line = [
      seg(`  ✔ approved by ${decision.by === 'user' ? 'you' : decision.by}`, 'ok'),
      ...confined,
      ...mark,
    ];
    const out: Line[] = [approved];
    if (decision.allowsPrefix)
      out.push(
        truncateLine(
          [seg(INDENT), seg(`and allowed \`${decision.allowsPrefix.join(' ')}\` for the session`, 'muted')],
          width,
        ),
      );
    if (decision.edited) {
      out.push([seg(INDENT), seg('as you edited it, to run:', 'warn')]);
      const lines = wrapLine([seg(visibleLines(decision.edited.subject).join('\n'), 'text')], Math.max(10, width - 4));
      out.push(...lines.map((l) => [seg(INDENT), ...l]));
    }
    return out;
  }
  const by = decision.by === 'user' ? 'you' : decision.by;
  const denied: Line = [
    seg(`  ✘ ${decision.by === 'interrupted' ? 'interrupted before approval' : `denied by ${by}`}`, 'warn'),
  ];
  if (!decision.message) return [denied];
  const message = wrapLine([seg(visibleLines(decision.message).join('\n'), 'text')], Math.max(10, width - 4));
  return [[...denied, seg(', saying:', 'warn')], ...message.map((l) => [seg(INDENT), ...l])];
}

function outputLines(content: string, width: number): Line[] {
  const source = content.replace(/\n+$/, '').split('\n');
  const out: Line[] = [];
  for (const text of source.slice(0, MAX_OUTPUT_LINES))
    out.push(truncateLine([seg(INDENT), seg(text, 'muted')], width));
  if (source.length > MAX_OUTPUT_LINES)
    out.push([seg(`${INDENT}… ${source.length - MAX_OUTPUT_LINES} more lines`, 'faint')]);
  return out;
}

function resultLines(entry: Entry<'tool_result'>, width: number): Line[] {
  const { tool, outcome, content, display, durationMs, resumedBy } = entry.payload;
  const { glyph, style } = resultGlyph(outcome);
  const facts = [outcome, formatBytes(utf8Bytes(content))];
  if (durationMs !== undefined) facts.push(formatMs(durationMs));
  if (display?.kind === 'diff') {
    const { added, removed } = diffStat(display.diff);
    facts.push(`+${added} −${removed}`);
  }
  if (resumedBy) facts.push(`after restart: ${resumedBy}`);
  const head: Line = truncateLine(
    [seg(`  ${glyph} `, style), seg(tool, 'tool'), seg(`  ${facts.join(' · ')}`, style === 'ok' ? 'muted' : style)],
    width,
  );
  if (display?.kind === 'diff') return [head, ...diffLines(display.diff, width)];
  if (display?.kind === 'text') return [head, ...outputLines(display.text, width)];
  if (outcome === 'ok' && tool === 'read_file') return [head];
  return [head, ...outputLines(content, width)];
}

function noticeLines(entry: Entry<'notice'>, width: number): Line[] {
  const { level, text, source } = entry.payload;
  const style = level === 'error' ? 'error' : level === 'warn' ? 'warn' : 'muted';
  const glyph = level === 'info' ? 'ℹ' : '!';
  // A hook that passed says so in one short line (what it added, on it): the whole text is in the
  // entry, and a warning or a block is shown whole.
  if (isPassingHookNotice(entry)) {
    const flat = text.replace(/:\s*\n\s*/, ': ').replace(/\s*\n\s*/g, ' ⏎ ');
    return [truncateLine([seg(`${glyph} `, style), seg(flat, style)], width)];
  }
  return wrapLine([seg(`${glyph} `, style), seg(text, style), seg(`  (${source})`, 'faint')], width, [seg('  ')]);
}

function summaryLines(entry: Entry<'summary'>, width: number): Line[] {
  const { text, replacedEntries, kind, collapsedResults, trigger, estimatedTokensBefore, estimatedTokensAfter } =
    entry.payload;
  const saved =
    estimatedTokensBefore !== undefined && estimatedTokensAfter !== undefined
      ? ` · ~${formatTokens(estimatedTokensBefore)} → ~${formatTokens(estimatedTokensAfter)} tokens`
      : '';
  const why = trigger ? ` · ${trigger}` : '';
  if (kind === 'collapse') {
    return [
      [],
      ...wrapLine(
        [
          seg(
            `Σ compacted: ${collapsedResults ?? replacedEntries} older tool results go to the model as one line each`,
            'accent',
          ),
          seg(`${why}${saved}`, 'faint'),
        ],
        width,
      ),
    ];
  }
  const body = markdownLines(text, width - 2, 'muted');
  const shown = body.slice(0, 8).map((l) => [seg('  '), ...l]);
  const more: Line[] = body.length > 8 ? [[seg(`  … ${body.length - 8} more lines`, 'faint')]] : [];
  const head = wrapLine(
    [
      seg(
        `Σ compacted: the ${counted(replacedEntries, 'entry', 'entries')} above, sent to the model as this summary`,
        'accent',
      ),
      seg(`${why}${saved}`, 'faint'),
    ],
    width,
  );
  return [[], ...head, ...shown, ...more];
}

function restoreLines(entry: Entry<'restore'>, width: number): Line[] {
  const { targetEntryId, added, changed, removed } = entry.payload;
  const counts = `${added} to create · ${changed} to overwrite · ${removed} to remove`;
  return [
    [],
    ...wrapLine(
      [
        seg(`${CHECKPOINT_MARK} `, 'accent'),
        seg(`restore files to ${targetEntryId}`, 'text'),
        seg(`  ${counts}`, 'faint'),
      ],
      width,
      [seg('  ')],
    ),
  ];
}

function restoreResultLines(entry: Entry<'restore_result'>, width: number): Line[] {
  const { outcome, content, resumed } = entry.payload;
  const style = outcome === 'ok' ? 'ok' : 'error';
  return wrapLine(
    [
      seg(`  ${outcome === 'ok' ? '✓' : '✗'} `, style),
      seg(content, outcome === 'ok' ? 'muted' : 'error'),
      seg(resumed ? '  (after restart)' : '', 'faint'),
    ],
    width,
    [seg(INDENT)],
  );
}

/** The transcript lines of one entry at a width. Entries never change, so callers cache these. */
export function entryLines(entry: AnyEntry, width: number): Line[] {
  switch (entry.type) {
    case 'user':
      return userLines(entry, width);
    case 'assistant':
      return assistantLines(entry, width);
    case 'tool_intent':
      return intentLines(entry, width);
    case 'approval':
      return approvalLines(entry, width);
    case 'tool_result':
      return resultLines(entry, width);
    case 'notice':
      return noticeLines(entry, width);
    case 'summary':
      return summaryLines(entry, width);
    case 'restore':
      return restoreLines(entry, width);
    case 'restore_result':
      return restoreResultLines(entry, width);
  }
}
