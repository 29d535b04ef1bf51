import { shellCommandOf } from '../../core/session/shell-command';
import { expandTemplate, type PromptTemplate } from './prompt-template';
import { expandPastes } from '../prompt/folded-paste';
import { promptMentions } from '../../core/tools/prompt-mentions';
import { askAgain } from './ask-again';
import { flashRefusal } from './refusal-flash';
import { runCommand, type CommandContext } from './run-command';
import { parseCommand } from './slash-commands';
import type { TurnController } from '../screen/turn-controller';
import type { UiState } from '../screen/ui-state';

/** What a slash command needs (its target comes from the selection or the head), and what sending a prompt needs. */
export interface SubmitContext extends Omit<CommandContext, 'targetId' | 'queued' | 'retry' | 'busy'> {
  readonly turns: TurnController;
  readonly headId: string | null;
  readonly current: () => UiState;
  /** Why a prompt cannot be sent now (no provider yet, a sessionStart hook blocked): one line that says what to do. */
  readonly refusal: string | null;
  /** Why the session cannot be left now (`/new`, `/resume`), read when the command runs. */
  readonly busy: () => string | null;
  /** Prompt templates (`/name` from a markdown file): their text is sent as a prompt. */
  readonly templates: readonly PromptTemplate[];
  /** Keeps a sent prompt (or command) in the workspace's history, across restarts. */
  readonly remember: (prompt: string) => void;
  /** Why each `@path` of a prompt that names something cannot be attached (empty: all can); null checks nothing. */
  readonly refusedMentions: ((prompt: string) => Promise<readonly string[]>) | null;
}

/** Before an edited prompt is sent: its parent is checked out, so the prompt starts a sibling branch. */
function branchBeside(ctx: SubmitContext, editing: NonNullable<UiState['editing']>): boolean {
  const done = ctx.session.branchBeside(editing.entryId, editing.parentId);
  if (!done.ok) flashRefusal(ctx, done);
  return done.ok;
}

/**
 * What ⏎ in the prompt does: a slash command runs here; a prompt is sent, or, while a turn runs,
 * goes into that turn (steering). `queue` (Alt-⏎) puts it behind the running turn instead.
 */
export function submitPrompt(ctx: SubmitContext, typed: string, how?: 'queue'): void {
  const { dispatch } = ctx;
  // A long paste shown folded is sent whole.
  const text = expandPastes(typed, ctx.current().pastes);
  const trimmed = text.trim();
  if (trimmed === '') return;
  const parsed = parseCommand(trimmed);
  // A prompt template's command is a prompt: its text with the arguments put in.
  const template = parsed && ctx.templates.find((t) => t.name === parsed.name);
  if (template) {
    const prompt = expandTemplate(template, parsed!.args);
    if (prompt === '') {
      dispatch({ type: 'flash', flash: { level: 'warn', text: `/${template.name}: its template is empty` } });
      return;
    }
    return sendPrompt(ctx, prompt, how, trimmed);
  }
  const command = parsed;
  if (command) {
    dispatch({ type: 'submitted', text: trimmed });
    ctx.remember(trimmed);
    const targetId = ctx.current().selectedId ?? ctx.headId;
    const queued = ctx.turns.getSnapshot().queue;
    const retry = (entryId: string | null): void => askAgain(ctx, entryId);
    // A submit context is a command context less what is read at this moment.
    runCommand({ ...ctx, targetId, queued, retry, busy: ctx.busy() }, command);
    return;
  }
  sendPrompt(ctx, text, how, text);
}

/** Sends `text` (while a turn runs: into it, or queued); `typed` is what the history keeps. */
function sendPrompt(ctx: SubmitContext, text: string, how: 'queue' | undefined, typed: string): void {
  const { dispatch } = ctx;
  const shell = shellCommandOf(text);
  if (ctx.readOnly) {
    const what = shell === null ? 'prompts cannot be sent' : '!commands cannot run';
    dispatch({
      type: 'flash',
      flash: { level: 'error', text: `this session is open read-only: ${what} here (nothing is written to it)` },
    });
    return;
  }
  if (shell !== null && shell.trim() === '') {
    dispatch({
      type: 'flash',
      flash: { level: 'warn', text: '! runs a shell command: type it after the ! (e.g. !git status)' },
    });
    return;
  }
  if (ctx.refusal !== null) {
    // The prompt stays in the input: nothing typed is lost.
    dispatch({ type: 'flash', flash: { level: 'warn', text: ctx.refusal } });
    return;
  }
  if (ctx.refusedMentions !== null && promptMentions(text).length > 0) {
    void checkThenSend(ctx, ctx.refusedMentions, text, how, typed);
    return;
  }
  send(ctx, text, how, typed);
}

/**
 * A prompt with `@path` mentions: each is read first, and one that names something that cannot be
 * attached (outside the workspace, a FIFO, a binary file) stops the send, saying why; the prompt
 * stays in the editor.
 */
async function checkThenSend(
  ctx: SubmitContext,
  refusedMentions: (prompt: string) => Promise<readonly string[]>,
  text: string,
  how: 'queue' | undefined,
  typed: string,
): Promise<void> {
  let refusals: readonly string[];
  try {
    refusals = await refusedMentions(text);
  } catch (error) {
    refusals = [`the files could not be read: ${(error as Error)?.message ?? String(error)}`];
  }
  if (refusals.length > 0) {
    const text = `not sent (your prompt stays here): ${refusals.join(' · ')}; to send an @word as text, put it in \`backticks\``;
    ctx.dispatch({ type: 'flash', flash: { level: 'error', text } });
    return;
  }
  send(ctx, text, how, typed);
}

function send(ctx: SubmitContext, text: string, how: 'queue' | undefined, typed: string): void {
  const { dispatch } = ctx;
  const editing = ctx.current().editing;
  if (editing !== null && !branchBeside(ctx, editing)) return;
  const sent = ctx.session.send(text, how ?? 'steer');
  if (!sent.ok) return flashRefusal(ctx, sent);
  const taken = sent.how;
  dispatch({ type: 'submitted', text: typed });
  ctx.remember(typed);
  const shell = shellCommandOf(text);
  if (shell !== null && taken === 'queued') {
    dispatch({
      type: 'flash',
      flash: { level: 'info', text: `!${shell.trim()} runs when the running turn ends (Esc stops the turn)` },
    });
    return;
  }
  dispatch({
    type: 'flash',
    flash:
      taken === 'steered'
        ? {
            level: 'info',
            text: 'steering: it goes into the running turn at its next model call (⏎ again replaces it; Alt-⏎ queues for after the turn)',
          }
        : null,
  });
}
