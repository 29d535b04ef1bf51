import type { EventSink } from '../../core/session/events';
import type { SessionCommands } from '../../core/session/session-commands';
import { sessionName } from '../../core/session/session-name';
import type { SessionStore } from '../../core/storage/session-store';
import { clipboardSequence, lastAnswer, osc52, type Multiplexer, type TmuxClipboard } from './copy-answer';
import { BUILT_IN_COMMANDS, type HostCommand, type ParsedCommand } from './slash-commands';
import type { SessionSwitching, SwitchRequest } from '../picker/session-switch';
import { flashRefusal } from './refusal-flash';
import type { Theme } from '../style/theme';
import type { TurnAgent } from '../screen/turn-controller';
import { openTreeField, type Flash, type UiAction } from '../screen/ui-state';

export interface CommandContext {
  readonly store: SessionStore;
  /** The session's commands (labels, name): they refuse what the session's state does not allow. */
  readonly session: SessionCommands;
  readonly agent: TurnAgent;
  readonly readOnly: boolean;
  /** The entry a label goes on: the tree's selection, else the checked-out entry. */
  readonly targetId: string | null;
  readonly hostCommands: readonly HostCommand[];
  readonly dispatch: (action: UiAction) => void;
  readonly setTheme: (theme: Theme) => void;
  readonly loadTheme: (spec: string) => Theme;
  readonly quit: () => void;
  /** The turn controller's `runTask`: host commands that call the model run through it. */
  readonly runTask: <T>(task: string, work: (signal: AbortSignal, emit: EventSink) => Promise<T>) => Promise<T | null>;
  /** Opens the local-server panel; null when the host offers none. */
  readonly openSetup: (() => void) | null;
  /** The prompts waiting behind the running turn. */
  readonly queued: readonly string[];
  /** Writes control sequences to the terminal the screen draws on (`/copy`); null when there is none. */
  readonly writeTerminal: ((data: string) => void) | null;
  /** The multiplexer tole runs in (tmux, GNU screen): `/copy` passes its sequence through it. */
  readonly multiplexer: Multiplexer;
  /** Inside tmux: asks it whether a clipboard sequence gets through (null: not asked, sent through its passthrough). */
  readonly tmux: TmuxClipboard | null;
  /** `/retry`: ask again from the target entry as a sibling branch. */
  readonly retry: (entryId: string | null) => void;
  /** `/new` and `/resume`: the host's way to change sessions in the screen; null when it has none. */
  readonly sessions: SessionSwitching | null;
  /** Why the session cannot be left now (a turn runs, an approval waits), or null. */
  readonly busy: string | null;
}

function flash(ctx: Pick<CommandContext, 'dispatch'>, level: Flash['level'], text: string): void {
  ctx.dispatch({ type: 'flash', flash: { level, text } });
}

/** What a label or a name needs: `/label` and the tree's label field (L) both go through `labelEntry`. */
interface LabelContext {
  readonly session: SessionCommands;
  readonly store: SessionStore;
  readonly readOnly: boolean;
  readonly dispatch: (action: UiAction) => void;
}

/** Sets (or, with empty text, removes) an entry's label, and says what happened; a refusal is flashed. */
export function labelEntry(ctx: LabelContext, targetId: string | null, text: string): void {
  const done = ctx.session.label(targetId, text);
  if (!done.ok) return flashRefusal(ctx, done);
  if (done.label === null)
    return flash(
      ctx,
      'info',
      done.had ? `label removed from ${targetId}` : `${targetId} has no label (/label TEXT sets one)`,
    );
  flash(ctx, 'info', `${targetId} labelled "${done.label}"`);
}

/** Names the session (empty text: removes the name) and says what happened: `/name TEXT` and the name field (R). */
export function nameTheSession(ctx: LabelContext, text: string): void {
  const done = ctx.session.name(text);
  if (!done.ok) return flashRefusal(ctx, done);
  if (done.name === null)
    return flash(
      ctx,
      'info',
      done.had ? 'the session has no name now' : 'the session has no name (/name TEXT gives it one)',
    );
  flash(ctx, 'info', `session named "${done.name}": the picker, tole sessions and /sessions show it`);
}

/** `/name` without text: the name field, holding the current name. */
export function openNameField(ctx: LabelContext): void {
  if (ctx.readOnly)
    return ctx.dispatch({
      type: 'flash',
      flash: { level: 'error', text: 'read-only session: its name cannot be written' },
    });
  ctx.dispatch({ type: 'field', field: openTreeField('name', null, sessionName(ctx.store) ?? '') });
}

function theme(ctx: CommandContext, spec: string): void {
  if (!spec) return flash(ctx, 'warn', 'usage: /theme dark | light | high-contrast | path/to/theme.json');
  try {
    const next = ctx.loadTheme(spec);
    ctx.setTheme(next);
    flash(ctx, 'info', `theme: ${next.name}`);
  } catch (error) {
    flash(ctx, 'error', (error as Error).message);
  }
}

/** `/copy`: the last answer on the checked-out path goes to the clipboard through OSC 52. */
function copy(ctx: CommandContext): void {
  const text = lastAnswer(ctx.store);
  if (text === null) return flash(ctx, 'info', 'nothing to copy: there is no answer on this path yet');
  if (!ctx.writeTerminal) return flash(ctx, 'warn', 'this tole has no terminal to copy through');
  if (ctx.multiplexer === 'tmux' && ctx.tmux !== null) {
    void copyInTmux(ctx, ctx.writeTerminal, ctx.tmux, text);
    return;
  }
  ctx.writeTerminal(clipboardSequence(text, ctx.multiplexer));
  const through =
    ctx.multiplexer === 'tmux'
      ? ' through tmux (it passes it on with `set -g allow-passthrough on`)'
      : ctx.multiplexer === 'screen'
        ? ' through GNU screen'
        : '';
  flash(ctx, 'info', `${copied(text)} with OSC 52${through}; a terminal that does not allow it ignores it`);
}

function copied(text: string): string {
  const lines = text.split('\n').length;
  return `copied the last answer (${Buffer.byteLength(text, 'utf8')} bytes, ${lines} ${lines === 1 ? 'line' : 'lines'})`;
}

/**
 * `/copy` inside tmux, which drops a clipboard sequence unless its options let it through: asks
 * tmux first, sends the sequence the way it passes on, and when neither way is open says which
 * option opens one and leaves the answer in tmux's paste buffer.
 */
async function copyInTmux(
  ctx: CommandContext,
  write: (data: string) => void,
  tmux: TmuxClipboard,
  text: string,
): Promise<void> {
  let route: Awaited<ReturnType<TmuxClipboard['route']>> | null = null;
  let unknown = '';
  try {
    route = await tmux.route();
  } catch (error) {
    unknown = (error as Error).message;
  }
  if (route === 'set-clipboard') {
    write(osc52(text));
    return flash(
      ctx,
      'info',
      `${copied(text)} with OSC 52 to tmux, which sets the terminal's clipboard (set-clipboard on)`,
    );
  }
  if (route === 'blocked') {
    let buffered = true;
    await tmux.loadBuffer(text).catch(() => {
      buffered = false;
    });
    const kept = buffered ? "; the answer is in tmux's paste buffer meanwhile (prefix ] pastes it)" : '';
    return flash(
      ctx,
      'warn',
      `not copied to the clipboard: tmux drops OSC 52 (allow-passthrough and set-clipboard are off); run \`tmux set -g allow-passthrough on\` and /copy again${kept}`,
    );
  }
  write(clipboardSequence(text, 'tmux'));
  const why = unknown ? ` (tmux could not be asked whether it passes it on: ${unknown})` : '';
  flash(
    ctx,
    'info',
    `${copied(text)} with OSC 52 through tmux's passthrough${why}; a terminal that does not allow it ignores it`,
  );
}

/** Asks the host to change sessions; the screen says what it does, and why when it cannot. */
export function switchSession(
  ctx: Pick<CommandContext, 'dispatch' | 'sessions'>,
  request: SwitchRequest,
  opening: string,
): void {
  if (!ctx.sessions) return;
  const command = request.kind === 'new' ? '/new' : '/resume';
  flash(ctx, 'info', opening);
  ctx.sessions
    .open(request)
    .catch((error: unknown) => flash(ctx, 'error', `${command}: ${(error as Error)?.message ?? String(error)}`));
}

/** Why `/new` or `/resume` cannot run here and now, said as a flash; true when it can. */
function canSwitch(ctx: CommandContext, command: string): ctx is CommandContext & { sessions: SessionSwitching } {
  if (!ctx.sessions) {
    flash(ctx, 'warn', `${command}: this screen cannot change sessions; quit and start tole again (tole -r picks one)`);
    return false;
  }
  if (ctx.busy) {
    flash(ctx, 'warn', `${command}: ${ctx.busy}; nothing in flight is dropped`);
    return false;
  }
  return true;
}

/** `/new`: a new session with this one's settings (model, profile, provider, trust); this one is kept whole. */
function newSession(ctx: CommandContext): void {
  if (!canSwitch(ctx, '/new')) return;
  if (!ctx.readOnly && ctx.store.tree.size === 0 && ctx.store.usage.length === 0)
    return flash(ctx, 'info', 'this session is new and still empty: type a prompt to start it');
  switchSession(ctx, { kind: 'new' }, 'opening a new session with the same settings…');
}

/** `/resume`: the session picker in the screen; `/resume ID` opens that one straight away. */
function resume(ctx: CommandContext, ref: string): void {
  if (!canSwitch(ctx, '/resume')) return;
  if (ref) return switchSession(ctx, { kind: 'resume', ref }, `opening ${ref}…`);
  const listed = ctx.sessions.list();
  // The session open here is not one to switch to.
  const sessions = listed.sessions.filter((s) => s.path !== ctx.store.path);
  if (sessions.length === 0) return flash(ctx, 'info', 'no other session to resume yet: /new starts another one');
  ctx.dispatch({ type: 'picker', picker: { ...listed, sessions } });
}

async function host(ctx: CommandContext, command: HostCommand, args: string): Promise<void> {
  try {
    const result = await command.run(args, { targetId: ctx.targetId, readOnly: ctx.readOnly, runTask: ctx.runTask });
    if (typeof result === 'string') flash(ctx, 'info', result);
    else if (result) ctx.dispatch({ type: 'report', report: result });
  } catch (error) {
    flash(ctx, 'error', `/${command.name}: ${(error as Error)?.message ?? String(error)}`);
  }
}

/** Runs a slash command typed into the prompt. Nothing here is sent to the model. */
export function runCommand(ctx: CommandContext, { name, args }: ParsedCommand): void {
  switch (name) {
    case 'help':
      return ctx.dispatch({ type: 'help', open: true });
    case 'quit':
    case 'exit':
      return ctx.quit();
    case 'tree':
      return ctx.dispatch({ type: 'focus', pane: 'tree' });
    case 'usage':
      return ctx.dispatch({ type: 'focus', pane: 'usage' });
    case 'model':
      if (!args) return flash(ctx, 'info', `model: ${ctx.agent.model}`);
      ctx.agent.model = args;
      return flash(ctx, 'info', `model: ${args} (from the next model call on)`);
    case 'label':
      return labelEntry(ctx, ctx.targetId, args);
    case 'name':
    case 'rename':
      return args ? nameTheSession(ctx, args) : openNameField(ctx);
    case 'theme':
      return theme(ctx, args);
    case 'retry':
      return ctx.retry(ctx.targetId);
    case 'queue':
      if (ctx.queued.length === 0)
        return flash(ctx, 'info', 'nothing is queued (while a turn runs, Alt-⏎ queues a prompt for after it)');
      return ctx.dispatch({ type: 'queue-list', open: true, index: 0 });
    case 'copy':
      return copy(ctx);
    case 'cost':
      return ctx.dispatch({ type: 'cost' });
    case 'plan':
      return ctx.dispatch({ type: 'plan' });
    case 'new':
      return newSession(ctx);
    case 'resume':
      return resume(ctx, args);
    case 'connect':
      if (!ctx.openSetup)
        return flash(
          ctx,
          'warn',
          'this tole cannot look for local servers; start it with --base-url http://HOST:PORT/v1 instead',
        );
      return ctx.openSetup();
  }
  const hosted = ctx.hostCommands.find((c) => c.name === name);
  if (hosted) {
    void host(ctx, hosted, args);
    return;
  }
  const known = [...BUILT_IN_COMMANDS, ...ctx.hostCommands].map((c) => `/${c.name}`).join(' ');
  flash(ctx, 'warn', `unknown command /${name}; try ${known}`);
}
