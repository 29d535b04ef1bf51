import type { AgentDeps } from './agent-deps';
import type { EventSink } from './events';
import type { Sandwich } from './tool-step';

/** What a part of a running turn works with: the deps as the profile set them, the model, its sandwich and its events. */
export interface TurnScope {
  readonly deps: AgentDeps;
  readonly model: string;
  readonly sandwich: Sandwich;
  readonly emit: EventSink;
}
