/** How a session compacts its conversation (the `compaction` section of the config). */
export interface CompactionSettings {
  /** Share of the context window at which a turn compacts before calling the model (default 0.5). */
  readonly threshold?: number;
  /** The model that writes summaries, e.g. a cheaper one (default: the session's model). */
  readonly model?: string;
  /** The model's context window, over what the host and the provider say. */
  readonly contextWindowTokens?: number;
  /** Messages sent verbatim after the summary (default 8). */
  readonly tailMessages?: number;
}
