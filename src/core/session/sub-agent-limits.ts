/** Limits on sub-agents (`task` calls), from the config's `limits`. */
export interface SubAgentLimits {
  /** How many `task` calls of one reply run at once (`limits.maxParallelTasks`). */
  readonly maxParallelTasks: number;
  /** How deep sub-agents nest: 1, children only (a profile that lists `task` lets its child go one deeper). */
  readonly maxTaskDepth: number;
  /** Model calls a child's turn may make, unless its profile says (`limits.childMaxSteps`). */
  readonly childMaxSteps: number;
}

export const DEFAULT_SUB_AGENT_LIMITS: SubAgentLimits = { maxParallelTasks: 3, maxTaskDepth: 1, childMaxSteps: 30 };
