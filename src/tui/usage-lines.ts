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
  /** The failed attempt being retried, and how long until the next one starts. */
  readonly retry: { readonly outcome: string; readonly remainingMs: number | null } | null;
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

function causes(counts: ReadonlyMap<string, number>): string {
  return [...counts.entries()].map(([cause, n]) => `${n}× ${cause}`).join(', ');
}

/** Retried attempts by cause, attempts that failed for good, then the time waited and the last error. */
function retryLines(retries: RetryTotals): Line[] {
  const out: Line[] = [];
  if (retries.retried.size > 0) out.push([seg('retries'.padEnd(LABEL), 'muted'), seg(causes(retries.retried), 'warn')]);
  if (retries.failed.size > 0) out.push([seg('failed'.padEnd(LABEL), 'muted'), seg(causes(retries.failed), 'error')]);
  const details = [retries.waitedMs > 0 ? `waited ${formatMs(retries.waitedMs)}` : '', retries.lastError ?? '']
    .filter(Boolean)
    .join(' · ');
  if (out.length > 0 && details) out.push([seg(' '.repeat(LABEL)), seg(details, 'faint')]);
  return out;
}

function liveLine(live: LiveUsage): Line | null {
  if (live.retry) {
    const wait = live.retry.remainingMs !== null ? ` in ${formatMs(live.retry.remainingMs)}` : '';
    return [seg(' '.repeat(LABEL)), seg(`↻ retry${wait}`, 'warn'), seg(` ${live.retry.outcome}`, 'muted')];
  }
  if (live.activity === null) return null;
  return [seg(' '.repeat(LABEL)), seg(`▸ ${live.activity}`, 'accent'), seg(` ${formatMs(live.elapsedMs)}`, 'muted')];
}

function modelLines(summary: UsageSummary, width: number): Line[] {
  return summary.perModel
    .slice(0, 6)
    .map(
      ({ model, totals }, i): Line =>
        spread(
          [
            seg((i === 0 ? 'models' : '').padEnd(LABEL), 'muted'),
            seg(model, 'text'),
            seg(` ×${totals.attempts}`, 'faint'),
          ],
          [seg(cost(totals), totals.costUsdMicros > 0 ? 'accent' : 'muted')],
          width,
        ),
    );
}

/** The usage pane: turn, branch, session, per model, retries; the turn row moves while streaming. */
/**
 * The model's context window: its size and where it came from, null when nothing says it (then
 * automatic compaction is off), undefined while it has not been asked yet.
 */
export type KnownWindow = { readonly tokens: number; readonly source: string } | null | undefined;

function windowLine(window: KnownWindow): Line | null {
  if (window === undefined) return null;
  if (window === null) return [seg('window'.padEnd(LABEL), 'muted'), seg('unknown: no auto-compact', 'warn')];
  return [
    seg('window'.padEnd(LABEL), 'muted'),
    seg(formatTokens(window.tokens), 'text'),
    seg(` from ${window.source}`, 'faint'),
  ];
}

export function usageLines(summary: UsageSummary, live: LiveUsage, width: number, window?: KnownWindow): Line[] {
  const col = columns(width);
  const header: Segment[] = [
    seg(''.padEnd(LABEL)),
    seg(cell('in', col.input), 'faint'),
    seg(cell('out', col.output), 'faint'),
    seg(cell('cost', col.cost), 'faint'),
  ];
  const lines: Line[] = [header, totalsLine('turn', summary.turn, width, live.estimatedOutputTokens)];
  const liveRow = liveLine(live);
  if (liveRow) lines.push(liveRow);
  lines.push(totalsLine('branch', summary.branch, width), totalsLine('session', summary.session, width));
  const windowRow = windowLine(window);
  if (windowRow) lines.push(windowRow);
  if (summary.session.cachedInputTokens > 0) {
    lines.push([
      seg(''.padEnd(LABEL)),
      seg(`${formatTokens(summary.session.cachedInputTokens)} of the input was cached`, 'faint'),
    ]);
  }
  lines.push(...modelLines(summary, width));
  lines.push(...retryLines(summary.retries));
  return lines.map((line) => truncateLine(line, width));
}
