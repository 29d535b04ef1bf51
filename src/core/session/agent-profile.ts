import type { GenerationSettings } from '../provider/provider';
import type { AgentDeps } from './agent-deps';

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

/** The host's deps with `profile` applied: what turns and compaction use. */
export function applyProfile(base: AgentDeps, profile: ActiveProfile): AgentDeps {
  return {
    ...base,
    systemPrompt: profile.systemPrompt,
    tools: profile.tools ? base.tools.only(profile.tools) : base.tools,
    limits: profile.maxSteps === undefined ? base.limits : { ...base.limits, maxSteps: profile.maxSteps },
    ...(profile.compactionModel === undefined
      ? {}
      : { compaction: { ...base.compaction, model: profile.compactionModel } }),
    ...(profile.generation === undefined ? {} : { generation: profile.generation }),
  };
}
