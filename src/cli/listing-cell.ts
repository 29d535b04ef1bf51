import { plainName } from '../core/plain-name';

/**
 * A cell of a session listing (`tole sessions`, `tole sessions --from`) as plain text on one line,
 * cut to `width` characters. What the cells show comes from session files and a team server
 * (prompts, names, directories, hosts): control characters are dropped before it reaches the
 * terminal, as for a session's name.
 */
export function listingCell(text: string, width = Number.POSITIVE_INFINITY): string {
  const flat = plainName(text);
  return flat.length > width ? `${flat.slice(0, width - 1)}…` : flat;
}

/** A time as the listings show it: UTC, to the minute. */
export function listingWhen(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').slice(0, 16);
}
