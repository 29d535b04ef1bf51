/**
 * Money as tole writes it everywhere (the usage pane, the picker, `tole sessions`): more
 * decimals the smaller the sum, so a cheap session's cost does not read as `$0.00`.
 */
export function formatUsd(costUsdMicros: number): string {
  const usd = costUsdMicros / 1_000_000;
  if (costUsdMicros === 0) return '$0';
  if (usd < 0.0001) return '<$0.0001';
  if (usd < 0.01) return `$${usd.toFixed(4)}`;
  if (usd < 1) return `$${usd.toFixed(3)}`;
  if (usd < 1000) return `$${usd.toFixed(2)}`;
  return `$${Math.round(usd)}`;
}

/**
 * A cost as formatUsd writes it, with `+?` when some call had no price (the cost is a lower
 * bound) and `~` before it when part of it is an estimate (a call cut off mid-stream).
 */
export function formatCost(costUsdMicros: number, unpriced: boolean, estimated = false): string {
  return `${estimated ? '~' : ''}${formatUsd(costUsdMicros)}${unpriced ? '+?' : ''}`;
}
