import type { UsageRecord } from '../../core/storage/records';
import { addRow, emptyTotals, type UsageTotals } from '../../core/usage/totals';
import type { UsageRow } from '../../core/usage/usage-row';
import { cacheFigures } from './cache-figures';
import { formatTokens } from '../text/format';
import { costText, withEstimate, type CallEstimate, type LiveTotals } from './live-cost';
import { seg, truncateLine, type Line } from '../style/styled-line';

/** What `/cost` is drawn from: the ledger, where the screen is, and the call in flight. */
export interface CostInput {
  readonly rows: readonly UsageRecord[];
  /** The checked-out path's entries (the usage pane's "branch"). */
  readonly pathIds: { has(id: string): boolean };
  /** The checked-out branch, where the call in flight is made. */
  readonly lane: string;
  /** The model of the call in flight. */
  readonly model: string;
  readonly estimate: CallEstimate | null;
}

const NAME = 18;
const CALLS = 6;
const TOKENS = 9;
const COST = 12;

/** A call that used tokens and had no price: its cost is unknown, not zero. */
function unpriced(row: UsageRow): boolean {
  return !row.priced && row.inputTokens + row.outputTokens > 0;
}

/** A failed attempt the server counted nothing for. */
function uncounted(row: UsageRow): boolean {
  return row.inputTokens + row.outputTokens === 0;
}

/** The cached column shows when some call of the session read from or wrote to a prompt cache. */
function header(title: string, cached: boolean): Line {
  return [
    seg(title.padEnd(NAME), 'accent'),
    seg('calls'.padStart(CALLS), 'faint'),
    seg('in'.padStart(TOKENS), 'faint'),
    ...(cached ? [seg('cached'.padStart(TOKENS), 'faint')] : []),
    seg('out'.padStart(TOKENS), 'faint'),
    seg('cost'.padStart(COST), 'faint'),
  ];
}

function tokens(totals: LiveTotals, n: number): string {
  return `${totals.estimated ? '~' : ''}${formatTokens(n)}`;
}

/** One row of figures. */
interface RowOptions {
  /** Why a cost is unknown, what is estimated: after the cost. */
  readonly note?: string;
  readonly mark?: string;
  /** With the cached column. */
  readonly cached: boolean;
}

function row(name: string, counted: UsageTotals, estimate: CallEstimate | null, options: RowOptions): Line {
  const { note = '', mark = ' ', cached } = options;
  const totals = withEstimate(counted, estimate);
  const calls = `${counted.attempts}${estimate ? '+1' : ''}`;
  return [
    seg(mark, 'accent'),
    seg(` ${name}`.padEnd(NAME - 1).slice(0, NAME - 1), mark === ' ' ? 'text' : 'accent'),
    seg(calls.padStart(CALLS), 'muted'),
    seg(tokens(totals, totals.inputTokens).padStart(TOKENS), 'text'),
    // The call in flight is estimated without cache reads: the cached figure is the ledger's.
    ...(cached
      ? [
          seg(
            formatTokens(counted.cachedInputTokens).padStart(TOKENS),
            counted.cachedInputTokens > 0 ? 'text' : 'muted',
          ),
        ]
      : []),
    seg(tokens(totals, totals.outputTokens).padStart(TOKENS), 'text'),
    // Calls that all had no price cost an unknown amount, not $0.
    seg(
      (totals.costUsdMicros === 0 && totals.unpriced ? '?' : costText(totals)).padStart(COST),
      totals.costUsdMicros > 0 ? 'accent' : 'muted',
    ),
    ...(note ? [seg(`  ${note}`, 'faint')] : []),
  ];
}

function grouped(rows: readonly UsageRecord[], key: (row: UsageRow) => string): Map<string, UsageTotals> {
  const out = new Map<string, UsageTotals>();
  for (const record of rows) {
    const usage = record.usage as UsageRow;
    const name = key(usage);
    let totals = out.get(name);
    if (!totals) out.set(name, (totals = emptyTotals()));
    addRow(totals, usage);
  }
  return out;
}

function byCost(map: Map<string, UsageTotals>): [string, UsageTotals][] {
  return [...map.entries()].sort((a, b) => b[1].costUsdMicros - a[1].costUsdMicros || b[1].attempts - a[1].attempts);
}

/**
 * `/cost`: the session's calls and what they cost, whole and split: priced against unpriced
 * (a call whose model has no price counts its tokens, not its cost), per model, per branch (where
 * each call was made) and the checked-out path. The call in flight is added, marked `~`.
 */
export function costLines(input: CostInput, width: number): Line[] {
  const { rows, estimate } = input;
  const session = emptyTotals();
  const priced = emptyTotals();
  const withoutPrice = emptyTotals();
  const path = emptyTotals();
  const failed = emptyTotals();
  const unpricedModels = new Set<string>();
  for (const record of rows) {
    const usage = record.usage as UsageRow;
    addRow(session, usage);
    if (unpriced(usage)) {
      addRow(withoutPrice, usage);
      unpricedModels.add(usage.model);
    } else if (uncounted(usage)) addRow(failed, usage);
    else addRow(priced, usage);
    if (record.entryId !== null && input.pathIds.has(record.entryId)) addRow(path, usage);
  }
  const flight = estimate;
  const flightPriced = flight?.priced ? flight : null;
  const flightUnpriced = flight !== null && !flight.priced ? flight : null;
  const cache = cacheFigures(session);
  const cached = cache !== null;
  const lines: Line[] = [header('session', cached), row('all calls', session, flight, { cached })];
  if (cache !== null) lines.push([seg(`   ${cache}`, 'faint')]);
  lines.push(row('priced', priced, flightPriced, { cached }));
  const names = [...unpricedModels, ...(flightUnpriced ? [input.model] : [])];
  const unique = [...new Set(names)];
  lines.push(
    row('unpriced', withoutPrice, flightUnpriced, {
      cached,
      note: unique.length > 0 ? `no price for ${unique.join(', ')}: set "pricing" in the config` : '',
    }),
  );
  if (failed.attempts > 0)
    lines.push(row('nothing counted', failed, null, { cached, note: 'failed before the server counted tokens' }));
  if (flight) {
    lines.push(
      row('in flight', emptyTotals(), flight, { cached, note: "estimated (~) until the server's usage arrives" }),
    );
  }

  lines.push([], header('per model', cached));
  const models = grouped(rows, (r) => r.model);
  if (flight && !models.has(input.model)) models.set(input.model, emptyTotals());
  for (const [model, totals] of byCost(models)) {
    const open = flight && model === input.model ? flight : null;
    const some = rows.some((r) => (r.usage as UsageRow).model === model && unpriced(r.usage as UsageRow));
    lines.push(row(model, totals, open, { cached, note: some || (open && !open.priced) ? 'unpriced' : '' }));
  }

  lines.push([], header('per branch', cached));
  const branches = grouped(rows, (r) => r.lane);
  if (flight && !branches.has(input.lane)) branches.set(input.lane, emptyTotals());
  for (const [lane, totals] of byCost(branches)) {
    const here = lane === input.lane;
    lines.push(
      row(lane, totals, here ? flight : null, { cached, note: here ? 'checked out' : '', mark: here ? '▸' : ' ' }),
    );
  }
  lines.push(row('this path', path, flight, { cached, note: 'the calls on the checked-out path, from the root' }));

  // The marks explained, when the overlay shows them.
  const notes: Line[] = [];
  if (flight) {
    notes.push([
      seg(
        "~ estimated: the prompt and the streamed text at four characters a token, list price, the last call's prompt as a cache read",
        'faint',
      ),
    ]);
  }
  if (cache !== null) {
    notes.push([
      seg(
        'cached: read from the prompt cache, at the cache price (10% of input unless the price says); written: stored in it (125%)',
        'faint',
      ),
    ]);
  }
  if (withoutPrice.attempts > 0 || flightUnpriced) {
    notes.push([seg('+? some calls had no price: the cost shown is what the priced ones cost', 'faint')]);
  }
  if (notes.length > 0) lines.push([], ...notes);
  return lines.map((line) => truncateLine(line, width));
}
