import { formatMs } from '../text/format';
import { refusalLines } from './entry-lines';
import { markdownLines } from '../text/markdown-lines';
import { lineWidth, seg, truncateLine, wrapLine, type Line } from '../style/styled-line';
import type { ActiveTool, LiveTurn } from '../screen/turn-controller';

/** The streamed reply's cursor, after its last text. */
const CURSOR = seg('▍', 'accent');
const CURSOR_WIDTH = lineWidth([CURSOR]);

/** How many lines of streamed reasoning show (the newest ones). */
const REASONING_LINES = 3;

/** How long until a failed attempt is retried, counting down from when it was reported. */
export function retryRemainingMs(live: LiveTurn, nowMs: number): number | null {
  if (!live.retry || live.retry.retryInMs === undefined || live.retryAtMs === null) return null;
  return Math.max(0, live.retry.retryInMs - (nowMs - live.retryAtMs));
}

/** Silence on an open stream shorter than this is not worth a line. */
const QUIET_WAIT_MS = 5_000;

/**
 * A stream that has gone quiet: how long, and when tole gives up on it and retries (the attempt
 * ends as a dropped stream at the limit that applies: first token, then idle).
 */
function streamWaitLine(live: LiveTurn, nowMs: number): Line | null {
  const { stream } = live;
  if (stream === null) return null;
  const firstToken = stream.lastDataAtMs === null;
  const silentMs = nowMs - (stream.lastDataAtMs ?? stream.openedAtMs);
  const limitMs = firstToken ? stream.firstTokenLimitMs : stream.idleLimitMs;
  if (silentMs < Math.min(QUIET_WAIT_MS, limitMs / 4)) return null;
  const left = Math.max(0, limitMs - silentMs);
  const what = firstToken ? `no first token for ${formatMs(silentMs)}` : `no data for ${formatMs(silentMs)}`;
  return [seg(`⧗ ${what} · gives up in ${formatMs(left)}`, 'warn'), seg(' · Esc stops', 'faint')];
}

/**
 * The transcript's live tail: what is happening now and is not in the session file yet: the
 * reply as it streams (markdown, with a cursor), its reasoning, a retry, a running tool.
 */
export function liveLines(
  live: LiveTurn,
  model: string,
  nowMs: number,
  awaitingApproval: boolean,
  width: number,
): Line[] {
  if (live.phase === 'idle') return [];
  const elapsed = live.startedAtMs === null ? 0 : nowMs - live.startedAtMs;
  const out: Line[] = [];
  if (live.text || live.reasoning || live.refusal || (live.activeTools.length === 0 && !awaitingApproval)) {
    out.push([], [seg('◆ tole', 'assistant'), seg(`  ${model}`, 'faint')]);
  }
  if (live.reasoning) {
    const tail = live.reasoning.trimEnd().split('\n').slice(-REASONING_LINES);
    for (const text of tail) out.push(truncateLine([seg('✻ ', 'muted'), seg(text, 'quote')], width));
  }
  if (live.text) {
    const lines = markdownLines(live.text, width);
    const last = lines[lines.length - 1] ?? [];
    // The cursor stands where the next text goes: on a line of its own when the last one is full
    // (a line one cell wider than the pane was drawn cut, with an ellipsis for the cursor).
    if (last.length > 0 && lineWidth(last) + CURSOR_WIDTH > width) out.push(...lines, [CURSOR]);
    else out.push(...lines.slice(0, -1), [...last, CURSOR]);
  }
  if (live.refusal) out.push(...refusalLines(live.refusal, width));
  if (!live.text && !live.refusal && !live.reasoning && live.activeTools.length === 0 && !awaitingApproval) {
    const doing = live.task
      ? `${live.task}…`
      : live.phase === 'resuming'
        ? 'settling what the last run left unfinished…'
        : 'thinking…';
    out.push([seg(doing, 'muted'), seg(`  ${formatMs(elapsed)}`, 'faint')]);
  }
  const waiting = streamWaitLine(live, nowMs);
  if (waiting !== null) out.push(...wrapLine(waiting, width, [seg('  ')]));
  if (live.retry) {
    const remaining = retryRemainingMs(live, nowMs);
    const wait = remaining !== null ? `; retrying in ${formatMs(remaining)}` : '; retrying';
    const why = live.retry.error ? `: ${live.retry.error}` : '';
    out.push(
      ...wrapLine([seg(`↻ attempt ${live.retry.attempt} failed (${live.retry.outcome}${why})${wait}`, 'warn')], width, [
        seg('  '),
      ]),
    );
  }
  if (live.activeTools.length > 0 && !awaitingApproval) out.push(...runningLines(live.activeTools, nowMs, width));
  if (awaitingApproval) out.push([seg('  ⏸ waiting for your approval (below)', 'warn')]);
  if (live.interrupting)
    out.push(...wrapLine([seg(`  ${live.unstoppable ?? 'stopping…'}`, 'warn')], width, [seg('  ')]));
  return out;
}

/** Calls shown one a line before they fold into a count. */
const RUNNING_LINES = 8;

/**
 * The tool calls in flight: one line each (tool, subject, time), several when ReadOnly calls run
 * side by side, and past a few of them a count of the rest.
 */
function runningLines(active: readonly ActiveTool[], nowMs: number, width: number): Line[] {
  const stop = active.length === 1 ? 'Esc stops it' : 'Esc stops them';
  const shown = active.length > RUNNING_LINES ? active.slice(0, RUNNING_LINES - 1) : active;
  const out = shown.map((call, i) =>
    truncateLine(
      [
        seg('  ⏵ running ', 'accent'),
        seg(call.tool, 'toolName'),
        ...(active.length > 1 && call.subject ? [seg(` ${call.subject}`, 'muted')] : []),
        seg(` ${formatMs(nowMs - call.startedAtMs)}`, 'faint'),
        ...(i === 0 ? [seg(`  ${stop}`, 'faint')] : []),
      ],
      width,
    ),
  );
  if (shown.length < active.length) out.push([seg(`  ⏵ … and ${active.length - shown.length} more`, 'accent')]);
  return out;
}
