import { cacheFigures } from './cache-figures';
import { formatCost, formatUsd } from '../../core/usage/cost-text';
import { formatMs, formatTokens } from '../text/format';
import { spread } from '../transcript/entry-lines';
import { seg, truncateLine, type Line, type Segment } from '../style/styled-line';
import {
  costText,
  fillStyle,
  fillText,
  withEstimate,
  type CallEstimate,
  type ContextFill,
  type LiveTotals,
} from './live-cost';
import type { KnownWindow } from './known-window';
import type { RetryTotals, UsageSummary, UsageTotals } from './usage-summary';

/** What is streaming right now, estimated: the ledger row only lands when the attempt ends. */
export interface LiveUsage {
  /** What the turn is doing now ("streaming", "running bash", "awaiting approval"), or null when idle. */
  readonly activity: string | null;
  /** The model call in flight, estimated until its usage lands (its figures are marked `~`). */
  readonly estimate: CallEstimate | null;
  /** Tokens sent against the model's context window. */
  readonly fill: ContextFill | null;
  readonly elapsedMs: number;
  /** The failed attempt being retried, and how long until the next one starts. */
  readonly retry: { readonly outcome: string; readonly remainingMs: number | null } | null;
}

const LABEL = 8;

function cell(text: string, width: number): string {
  return text.padStart(width);
}

function cost(totals: UsageTotals): string {
  return formatCost(totals.costUsdMicros, totals.unpriced, totals.estimated);
}

/** A token figure, marked `~` when it holds an estimate, unless the mark would leave no space before it (the cost keeps its mark). */
function marked(totals: LiveTotals, tokens: number, width: number): string {
  const text = formatTokens(tokens);
  return totals.estimated && text.length + 1 < width ? `~${text}` : text;
}

/** Column widths for tokens in, tokens out and cost; the cost column takes what is left. */
function columns(width: number): { input: number; output: number; cost: number } {
  return { input: 6, output: 6, cost: Math.max(9, width - LABEL - 12) };
}

/** A totals row; with the open call's estimate added, each figure it moves is marked `~`. */
function totalsLine(name: string, counted: UsageTotals, width: number, estimate: CallEstimate | null): Line {
  const col = columns(width);
  const totals = withEstimate(counted, estimate);
  // A figure of nothing yet is muted, as the cost of nothing is: a new session's rows read as one grey.
  const figure = (tokens: number): 'text' | 'muted' => (tokens === 0 ? 'muted' : 'text');
  return [
    seg(name.padEnd(LABEL), 'muted'),
    seg(cell(marked(totals, totals.inputTokens, col.input), col.input), figure(totals.inputTokens)),
    seg(cell(marked(totals, totals.outputTokens, col.output), col.output), figure(totals.outputTokens)),
    seg(cell(costText(totals), col.cost), totals.costUsdMicros > 0 ? 'accent' : 'muted'),
  ];
}

function fillLine(fill: ContextFill | null): Line | null {
  if (fill === null) return null;
  return [seg('context'.padEnd(LABEL), 'muted'), seg(fillText(fill), fillStyle(fill))];
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

/**
 * The per-model rows of a summary at a width, kept with the summary: a streamed reply lays the
 * usage pane out again each time its estimate moves, and these rows (the widest to lay out) do
 * not move with it.
 */
const modelRows = new WeakMap<UsageSummary, { readonly width: number; readonly lines: Line[] }>();

function modelLines(summary: UsageSummary, width: number): Line[] {
  const held = modelRows.get(summary);
  if (held?.width === width) return held.lines;
  const lines = layOutModelLines(summary, width);
  modelRows.set(summary, { width, lines });
  return lines;
}

function layOutModelLines(summary: UsageSummary, width: number): Line[] {
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

/** Each sub-agent (newest last, at most six): its profile (when it has one), model and cost, `▸` while it runs; then what `*` means. */
function childLines(summary: UsageSummary, width: number): Line[] {
  const shown = summary.children.slice(-6);
  if (shown.length === 0) return [];
  const rows = shown.map(
    (child, i): Line =>
      spread(
        [
          seg((i === 0 ? 'agents' : '').padEnd(LABEL), 'muted'),
          seg(child.running ? '▸ ' : '  ', 'accent'),
          // A child without a profile is its model alone (the pane is narrow); one that made no call yet has none.
          ...(child.agent === null
            ? [seg(child.model || 'sub-agent', 'text')]
            : [seg(child.agent, 'text'), seg(child.model ? ` ${child.model}` : '', 'faint')]),
        ],
        [seg(cost(child.totals), child.totals.costUsdMicros > 0 ? 'accent' : 'muted')],
        width,
      ),
  );
  return [...rows, [seg(' '.repeat(LABEL)), seg('* with sub-agents', 'faint')]];
}

/**
 * `budget  $0.41 / $1.00`: what the session has cost, its sub-agents' included, against
 * `limits.maxSessionCostUsd`; warned from 80%, an error once reached (the next model call stops).
 */
function budgetLine(session: UsageTotals, budgetUsd: number | null): Line | null {
  if (budgetUsd === null) return null;
  const budgetMicros = Math.round(budgetUsd * 1_000_000);
  const spent = session.costUsdMicros;
  const style = spent >= budgetMicros ? 'error' : spent >= budgetMicros * 0.8 ? 'warn' : 'text';
  return [seg('budget'.padEnd(LABEL), 'muted'), seg(`${cost(session)} / ${formatUsd(budgetMicros)}`, style)];
}

function windowLine(window: KnownWindow): Line | null {
  if (window === undefined) return null;
  if (window === null) return [seg('window'.padEnd(LABEL), 'muted'), seg('unknown: no auto-compact', 'warn')];
  return [
    seg('window'.padEnd(LABEL), 'muted'),
    seg(formatTokens(window.tokens), 'text'),
    seg(` from ${window.source}`, 'faint'),
  ];
}

/**
 * The usage pane: turn, branch, session, the session's budget when one is set (`budgetUsd`), per
 * model, retries; the turn row moves while streaming.
 */
export function usageLines(
  summary: UsageSummary,
  live: LiveUsage,
  width: number,
  window?: KnownWindow,
  budgetUsd: number | null = null,
): Line[] {
  const col = columns(width);
  const header: Segment[] = [
    seg(''.padEnd(LABEL)),
    seg(cell('in', col.input), 'faint'),
    seg(cell('out', col.output), 'faint'),
    seg(cell('cost', col.cost), 'faint'),
  ];
  // Rows that hold sub-agents' usage are marked `*`.
  const mark = summary.children.length > 0 ? '*' : '';
  const lines: Line[] = [
    header,
    totalsLine(`turn${mark}`, summary.turn, width, live.estimate),
    totalsLine(`branch${mark}`, summary.branch, width, live.estimate),
    totalsLine(`session${mark}`, summary.session, width, live.estimate),
  ];
  const budgetRow = budgetLine(summary.session, budgetUsd);
  if (budgetRow) lines.push(budgetRow);
  const fillRow = fillLine(live.fill);
  if (fillRow) lines.push(fillRow);
  const windowRow = windowLine(window);
  if (windowRow) lines.push(windowRow);
  const cache = cacheFigures(summary.session);
  if (cache !== null) {
    // The pane is narrow: the writes go on a line of their own.
    const [reads, writes] = cache.split(' · written ');
    lines.push([seg('cache'.padEnd(LABEL), 'muted'), seg(reads!, 'faint')]);
    if (writes !== undefined) lines.push([seg(''.padEnd(LABEL)), seg(`written ${writes}`, 'faint')]);
  }
  lines.push(...modelLines(summary, width));
  lines.push(...childLines(summary, width));
  lines.push(...retryLines(summary.retries));
  // The live row comes and goes with each turn: last, it moves no row above it (a terminal is sent
  // the row alone, not every row under the turn's).
  const liveRow = liveLine(live);
  if (liveRow) lines.push(liveRow);
  return lines.map((line) => truncateLine(line, width));
}

/** header, turn, branch, session, context, window, the first model row and the live row. */
const STEADY_ROWS = 8;

/**
 * The rows the usage pane is given on screen: what its lines take, but never fewer than it takes
 * while a turn of one model runs (the header, the turn, branch and session rows, the context and
 * window rows, one model row, the live row). The context estimate and the window arrive after the
 * first frame and the live row comes and goes with each turn: were the pane sized to its lines,
 * each would move the registers pane below it and redraw it.
 */
export function usageRows(lines: number, summary: UsageSummary): number {
  return Math.max(lines, STEADY_ROWS - 1 + Math.max(1, Math.min(6, summary.perModel.length)));
}
