import { formatCost } from '../../core/usage/cost-text';
import { formatTokens } from '../text/format';
import type { LiveTurn, TurnAgent } from '../screen/turn-controller';
import type { KnownWindow } from './known-window';
import type { UsageTotals } from './usage-summary';

/**
 * The model call in flight, estimated until its usage row lands: the prompt the call sent
 * (characters / 4 of the conversation, system prompt and tools), the text streamed so far
 * (characters / 4), and their price at the model's list price, the part of the prompt the
 * last call left in the provider's cache at the cache rate.
 */
export interface CallEstimate {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly costUsdMicros: number;
  /** False when nothing prices the model (then the cost is not estimated either). */
  readonly priced: boolean;
}

/** Streamed text in tokens, as tole estimates them everywhere: four characters a token. */
export function streamedTokens(live: Pick<LiveTurn, 'text' | 'reasoning' | 'refusal'>): number {
  return Math.ceil((live.text.length + live.reasoning.length + live.refusal.length) / 4);
}

/**
 * The open call's estimate; null when no call is open (its usage came back, or none was made).
 * `cachedPrefixTokens`: how much of the prompt the provider's cache likely serves (the last
 * call's prompt, when that call used the cache), priced at the cache rate.
 */
export function callEstimate(
  live: Pick<LiveTurn, 'callOpen' | 'text' | 'reasoning' | 'refusal'>,
  requestTokens: number | null,
  agent: Pick<TurnAgent, 'priceUsage'>,
  cachedPrefixTokens = 0,
): CallEstimate | null {
  if (!live.callOpen) return null;
  const inputTokens = requestTokens ?? 0;
  const outputTokens = streamedTokens(live);
  const cachedInputTokens = Math.min(Math.max(0, cachedPrefixTokens), inputTokens);
  const priced = agent.priceUsage?.({ inputTokens, outputTokens, cachedInputTokens, cacheWriteTokens: 0 }) ?? {
    costUsdMicros: 0,
    priced: false,
  };
  return { inputTokens, outputTokens, costUsdMicros: priced.costUsdMicros, priced: priced.priced };
}

/** Totals with the open call's estimate added (what the row will add once it lands). */
export interface LiveTotals {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly costUsdMicros: number;
  /** Some call had no price: the cost is a lower bound (`+?`). */
  readonly unpriced: boolean;
  /** Part of the token figures is an estimate (`~`): the open call's, or a call's cut off mid-stream. */
  readonly estimated: boolean;
  /** Part of the cost is (a priced call's estimate). */
  readonly costEstimated: boolean;
}

export function withEstimate(totals: UsageTotals, estimate: CallEstimate | null): LiveTotals {
  // A call cut off mid-stream is in the ledger as an estimate already: its mark stays.
  if (estimate === null) return { ...totals, costEstimated: totals.estimated };
  return {
    inputTokens: totals.inputTokens + estimate.inputTokens,
    outputTokens: totals.outputTokens + estimate.outputTokens,
    costUsdMicros: totals.costUsdMicros + estimate.costUsdMicros,
    unpriced: totals.unpriced || (!estimate.priced && estimate.inputTokens + estimate.outputTokens > 0),
    estimated: true,
    costEstimated: totals.estimated || estimate.priced,
  };
}

/** `~$0.0123`, `$0.41+?` (some call had no price), `~$0+?`. */
export function costText(totals: LiveTotals): string {
  return `${totals.costEstimated ? '~' : ''}${formatCost(totals.costUsdMicros, totals.unpriced)}`;
}

/** How full the model's context window is: the tokens sent against its size. */
export interface ContextFill {
  readonly tokens: number;
  /** An estimate (the call in flight, or the next one), not the server's count. */
  readonly estimated: boolean;
  /** The window's size; null when it is not known. */
  readonly windowTokens: number | null;
}

/** At or above this share of the window the fill is shown as a warning, and above the next as an alert. */
const FILL_WARN = 0.6;
export const FILL_ALERT = 0.85;

/**
 * While a call is open: its prompt, estimated. Otherwise the prompt tokens the last call on the
 * branch sent, as the server counted them; with no call on the branch, the next call's estimate.
 */
export function contextFill(
  callOpen: boolean,
  lastRequestTokens: number | null,
  requestTokens: number | null,
  window: KnownWindow,
): ContextFill | null {
  const windowTokens = window?.tokens ?? null;
  if (!callOpen && lastRequestTokens !== null) return { tokens: lastRequestTokens, estimated: false, windowTokens };
  if (requestTokens === null) return null;
  return { tokens: requestTokens, estimated: true, windowTokens };
}

export function fillShare(fill: ContextFill): number | null {
  return fill.windowTokens === null || fill.windowTokens <= 0 ? null : fill.tokens / fill.windowTokens;
}

/** `41k/128k 32%`, `~41k/128k 32%`, `~41k` (window unknown). */
export function fillText(fill: ContextFill): string {
  const tokens = `${fill.estimated ? '~' : ''}${formatTokens(fill.tokens)}`;
  const share = fillShare(fill);
  if (share === null) return tokens;
  return `${tokens}/${formatTokens(fill.windowTokens!)} ${Math.round(share * 100)}%`;
}

/** The theme style of a fill: plain, warn when high, error when nearly full. */
export function fillStyle(fill: ContextFill): 'text' | 'warn' | 'error' {
  const share = fillShare(fill) ?? 0;
  return share >= FILL_ALERT ? 'error' : share >= FILL_WARN ? 'warn' : 'text';
}
