import type { MachineStateName } from '../../core/machine/machine';
import type { LiveTurn } from '../screen/turn-controller';

/**
 * What the status bar names as the session's state. The machine sits in Planning for the whole
 * model call; once the reply streams, "Planning" would read as if nothing were arriving, so the
 * live turn says what is happening: streaming the answer, reasoning, or waiting for a retry
 * (before the first token it is still Planning).
 */
export function statusPhase(
  pc: MachineStateName,
  live: Pick<LiveTurn, 'phase' | 'text' | 'reasoning' | 'retry' | 'task'>,
): string {
  if (live.phase === 'idle') return pc;
  if (live.task !== null) return pc;
  if (live.retry !== null) return 'Retrying';
  if (pc !== 'Planning') return pc;
  if (live.text !== '') return 'Streaming';
  if (live.reasoning !== '') return 'Reasoning';
  return pc;
}
