import type { GenerationSettings } from '../provider/provider';

/**
 * What the session runs with beyond its model: the system prompt (the host has assembled it, and
 * run any prompt commands) and what an agent profile sets. A field left out keeps the host's.
 */
export interface ActiveProfile {
  /** The agent profile's name; null when none is chosen. */
  readonly name: string | null;
  readonly systemPrompt: string;
  /** The tools offered to the model, by name; all of them when left out. */
  readonly tools?: readonly string[];
  readonly maxSteps?: number;
  readonly compactionModel?: string;
  readonly generation?: GenerationSettings;
}
