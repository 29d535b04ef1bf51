import { machineState, type MachineState } from '../machine/machine';
import type { AgentDeps } from './agent-deps';
import type { EventSink, TurnOutcome } from './events';
import { SHELL_TOOL } from './shell-command';
import { ToolCalls } from './tool-calls';
import { AppendBatch } from './cursor';
import { Sandwich } from './tool-step';
import type { TurnResult } from './turn-ending';
import type { TurnScope } from './turn-scope';

/** The state a new turn starts from: Idle or Final (a leftover mid-turn state is closed first). */
export function readyState(store: AgentDeps['store'], sandwich: Sandwich): MachineState {
  const state = machineState(store);
  if (state.pc === 'Idle' || state.pc === 'Final') return state;
  return sandwich.move(state, 'Final');
}

/**
 * `!command`: the user's own shell command, run as a call of the bash tool (its risk, approval,
 * sandbox, checkpoint and output cap) between turns, its intent marked as the user's. The model
 * is not called: it reads the command and its output with the next prompt. The host holds the
 * turn lock (Agent.exclusive) around it.
 */
export async function runUserShell(
  deps: AgentDeps,
  model: string,
  command: string,
  signal: AbortSignal,
  emit: EventSink,
): Promise<TurnResult> {
  const refusal = shellRefusal(deps, command);
  if (refusal !== null) {
    emit({ type: 'notice', level: 'warn', text: refusal });
    return { outcome: 'blocked', text: refusal };
  }
  const { store } = deps;
  const call = { id: `shell_${store.lastSeq + 1}`, name: SHELL_TOOL, arguments: JSON.stringify({ command }) };
  let text = '';
  // What the command printed (or why it did not run) is the "answer" a headless run prints.
  const noting: EventSink = (event) => {
    if (event.type === 'tool-result' && event.callId === call.id) {
      const settled = store.entry(event.entryId);
      if (settled?.type === 'tool_result') text = settled.payload.content;
    }
    emit(event);
  };
  const sandwich = new Sandwich(deps, noting);
  const planning = sandwich.move(readyState(store, sandwich), 'Planning');
  emit({ type: 'turn-started', promptEntryId: null, lane: new AppendBatch(store).laneName });
  const scope: TurnScope = { deps, model, sandwich, emit: noting };
  const ran = await new ToolCalls().runCall(scope, sandwich.move(planning, 'ToolCall'), call, signal, true);
  sandwich.move(ran.state, 'Final');
  const outcome: TurnOutcome = signal.aborted ? 'aborted' : ran.ok ? 'done' : 'error';
  emit({ type: 'turn-ended', outcome, text });
  return { outcome, text };
}

/** Why `!command` cannot run here (null: it can), in words that say what to do. */
function shellRefusal(deps: AgentDeps, command: string): string | null {
  if (deps.store.readOnly)
    return 'this session is open read-only: !commands cannot run here (nothing is written to it)';
  if (command.trim() === '') return '! runs a shell command: type it after the ! (e.g. !git status)';
  if (!deps.tools.get(SHELL_TOOL))
    return `the ${SHELL_TOOL} tool is off in this agent profile, so !commands cannot run; switch profiles with /agent`;
  return null;
}
