import { formatMs, formatTokens, formatUsd } from './format';
import { spread } from './entry-lines';
import { seg, truncateLine, type Line, type Segment } from './styled-line';
import type { RetryTotals, UsageSummary, UsageTotals } from './usage-summary';

/** What is streaming right now, estimated: the ledger row only lands when the attempt ends. */
export interface LiveUsage {
  /** What the turn is doing now ("streaming", "running bash", "awaiting approval"), or null when idle. */
  readonly activity: string | null;
  readonly estimatedOutputTokens: number;
  readonly elapsedMs: number;
  readonly retry: { readonly outcome: string; readonly retryInMs?: number; readonly error?: string } | null;
}

const LABEL = 8;

function cell(text: string, width: number): string {
  return text.padStart(width);
}

function cost(totals: UsageTotals): string {
  return `${formatUsd(totals.costUsdMicros)}${totals.unpriced ? '+?' : ''}`;
}

/** Column widths for tokens in, tokens out and cost; the cost column takes what is left. */
function columns(width: number): { input: number; output: number; cost: number } {
  return { input: 6, output: 7, cost: Math.max(8, width - LABEL - 13) };
}

function totalsLine(name: string, totals: UsageTotals, width: number, extraOut = 0): Line {
  const col = columns(width);
  const out = totals.outputTokens + extraOut;
  return [
    seg(name.padEnd(LABEL), 'muted'),
    seg(cell(formatTokens(totals.inputTokens), col.input), 'text'),
    seg(cell(`${extraOut > 0 ? '~' : ''}${formatTokens(out)}`, col.output), 'text'),
    seg(cell(cost(totals), col.cost), totals.costUsdMicros > 0 ? 'accent' : 'muted'),
  ];
}

function retryLines(name: string, retries: RetryTotals): Line[] {
  if (retries.failed === 0) return [];
  const causes = [...retries.causes.entries()].map(([cause, n]) => `${n}× ${cause}`).join(', ');
  const details = [retries.waitedMs > 0 ? `waited ${formatMs(retries.waitedMs)}` : '', retries.lastError ?? ''].filter(Boolean).join(' · ');
  const out: Line[] = [[seg(name.padEnd(LABEL), 'muted'), seg(causes, 'warn')]];
  if (details) out.push([seg(' '.repeat(LABEL)), seg(details, 'faint')]);
  return out;
}

function liveLine(live: LiveUsage): Line | null {
  if (live.retry) {
    const wait = live.retry.retryInMs !== undefined ? ` in ${formatMs(live.retry.retryInMs)}` : '';
    return [seg(' '.repeat(LABEL)), seg(`↻ retrying${wait}`, 'warn'), seg(` (${live.retry.outcome})`, 'muted')];
  }
  if (live.activity === null) return null;
  return [seg(' '.repeat(LABEL)), seg(`▸ ${live.activity}`, 'accent'), seg(` ${formatMs(live.elapsedMs)}`, 'muted')];
}

function modelLines(summary: UsageSummary, width: number): Line[] {
  return summary.perModel.slice(0, 6).map(({ model, totals }, i): Line =>
    spread(
      [seg((i === 0 ? 'models' : '').padEnd(LABEL), 'muted'), seg(model, 'text'), seg(` ×${totals.attempts}`, 'faint')],
      [seg(cost(totals), totals.costUsdMicros > 0 ? 'accent' : 'muted')],
      width,
    ),
  );
}

/** The usage pane: turn, branch, session, per model, retries; the turn row moves while streaming. */
export function usageLines(summary: UsageSummary, live: LiveUsage, width: number): Line[] {
  const col = columns(width);
  const header: Segment[] = [seg(''.padEnd(LABEL)), seg(cell('in', col.input), 'faint'), seg(cell('out', col.output), 'faint'), seg(cell('cost', col.cost), 'faint')];
  const lines: Line[] = [header, totalsLine('turn', summary.turn, width, live.estimatedOutputTokens)];
  const liveRow = liveLine(live);
  if (liveRow) lines.push(liveRow);
  lines.push(totalsLine('branch', summary.branch, width), totalsLine('session', summary.session, width));
  if (summary.session.cachedInputTokens > 0) {
    lines.push([seg(''.padEnd(LABEL)), seg(`${formatTokens(summary.session.cachedInputTokens)} of the input was cached`, 'faint')]);
  }
  lines.push(...modelLines(summary, width));
  lines.push(...retryLines('retries', summary.sessionRetries));
  if (summary.turnRetries.failed > 0 && summary.turnRetries.failed !== summary.sessionRetries.failed) {
    lines.push(...retryLines('  turn', summary.turnRetries));
  }
  return lines.map((line) => truncateLine(line, width));
}
