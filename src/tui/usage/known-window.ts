/**
 * The model's context window: its size and where it came from, null when nothing says it (then
 * automatic compaction is off), undefined while it has not been asked yet.
 */
export type KnownWindow = { readonly tokens: number; readonly source: string } | null | undefined;
