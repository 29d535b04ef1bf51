import type { EventSink } from '../core/session/events';
import type { SessionStore } from '../core/storage/session-store';
import { runCommand } from './run-command';
import { parseCommand, type HostCommand } from './slash-commands';
import type { Theme } from './theme';
import type { TurnAgent, TurnController } from './turn-controller';
import type { UiAction, UiState } from './ui-state';

export interface SubmitContext {
  readonly store: SessionStore;
  readonly agent: TurnAgent;
  readonly turns: TurnController;
  readonly readOnly: boolean;
  readonly headId: string | null;
  readonly hostCommands: readonly HostCommand[];
  readonly current: () => UiState;
  readonly dispatch: (action: UiAction) => void;
  readonly setTheme: (theme: Theme) => void;
  readonly loadTheme: (spec: string) => Theme;
  readonly quit: () => void;
  readonly runTask: <T>(task: string, work: (signal: AbortSignal, emit: EventSink) => Promise<T>) => Promise<T | null>;
  readonly openSetup: (() => void) | null;
  /** Why a prompt cannot be sent now (no provider yet, a sessionStart hook blocked): one line that says what to do. */
  readonly refusal: string | null;
}

/** What ⏎ in the prompt does: a slash command runs here; a prompt is sent, or queued behind the running turn. */
export function submitPrompt(ctx: SubmitContext, text: string): void {
  const { dispatch } = ctx;
  const trimmed = text.trim();
  if (trimmed === '') return;
  const command = parseCommand(trimmed);
  if (command) {
    dispatch({ type: 'submitted', text: trimmed });
    const targetId = ctx.current().selectedId ?? ctx.headId;
    const { store, agent, readOnly, hostCommands, setTheme, loadTheme, quit, runTask, openSetup } = ctx;
    runCommand({ store, agent, readOnly, targetId, hostCommands, dispatch, setTheme, loadTheme, quit, runTask, openSetup }, command);
    return;
  }
  if (ctx.readOnly) {
    dispatch({ type: 'flash', flash: { level: 'error', text: 'this session is open read-only: prompts cannot be sent here (nothing is written to it)' } });
    return;
  }
  if (ctx.refusal !== null) {
    // The prompt stays in the input: nothing typed is lost.
    dispatch({ type: 'flash', flash: { level: 'warn', text: ctx.refusal } });
    return;
  }
  if (!ctx.turns.submit(text)) {
    dispatch({ type: 'flash', flash: { level: 'warn', text: 'the queue is full: wait for the running turn, or Esc to stop it' } });
    return;
  }
  dispatch({ type: 'submitted', text });
  dispatch({ type: 'flash', flash: null });
}
