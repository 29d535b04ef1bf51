import { Box } from 'ink';
import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { SessionCommands } from '../core/session/session-commands';
import type { SessionStore } from '../core/storage/session-store';
import { ApprovalPrompt, approvalBox, approvalScrollOf, approvalViewAt } from './approval/ApprovalPrompt';
import type { ApprovalQueue } from './approval/approval-queue';
import { FilesDialogPrompt, filesDialogHeight } from './dialogs/FilesDialogPrompt';
import { restoreOffered } from './dialogs/files-dialog-lines';
import { FirstRunPanel } from './dialogs/FirstRunPanel';
import { FlashLine, flashLines } from './status/FlashLine';
import { LiveCostOverlay } from './overlays/CostOverlay';
import { HelpOverlay } from './overlays/HelpOverlay';
import { ListOverlay } from './overlays/ListOverlay';
import type { Multiplexer, TmuxClipboard } from './commands/copy-answer';
import { oneLine } from './text/format';
import { seg } from './style/styled-line';
import { FieldLine } from './tree/FieldLine';
import { allowancesInForce } from './approval/allowances-in-force';
import { openField } from './approval/approval-keys';
import { approvalOffers } from './approval/approval-offers';
import { approvalFieldKeys } from './approval/approval-lines';
import { approvalPlaceholder } from './approval/approval-placeholder';
import { followSearch, handleKey, handlePaste, type KeyContext, type SessionAllowance } from './input/key-handler';
import { TreeFinder } from './tree/tree-find';
import { activeScopes, hintsFor, keyConditions, keyFor, KEYMAP, type Binding } from './input/keymap';
import { selectedTaskCall } from './tree/selected-row';
import { screenLayout, sidePaneWidth } from './panes/layout';
import { paneAt } from './input/mouse-wheel';
import { useSignals, type Signals } from './status/use-signals';
import type { EditorResult } from './prompt/external-editor';
import type { PromptTemplate } from './commands/prompt-template';
import { paneInnerSize } from './panes/RuledPane';
import { Panes } from './panes/Panes';
import { promptLayout, promptPlaceholder } from './prompt/prompt-layout';
import { PromptLine } from './prompt/PromptLine';
import type { ProviderSetup } from './dialogs/provider-setup';
import { BUILT_IN_COMMANDS, type HostCommand } from './commands/slash-commands';
import { LiveStatusBar } from './status/LiveStatusBar';
import { CompletionPopup, popupLines, popupNoteLines, popupRoom } from './prompt/CompletionPopup';
import { type AskedValues, completionList, completionNote } from './prompt/completion-items';
import type { CompletionItem } from './prompt/completion-target';
import { useCompletion } from './prompt/use-completion';
import type { WorkspacePathSource } from './prompt/workspace-paths';
import { popupChoice } from './screen/ui-state';
import { readPromptAttachments } from '../core/tools/builtin/read-attachment';
import { loadTheme as loadThemeFile, type Theme } from './style/theme';
import { ThemeContext, themeView } from './style/theme-context';
import type { TurnAgent, TurnController } from './screen/turn-controller';
import { useErrorFlash } from './status/use-error-flash';
import { useFirstRun } from './dialogs/use-first-run';
import { useFlashFade } from './status/use-flash-fade';
import { useFlushedEffects } from './screen/use-flushed-effects';
import { useKeyboard } from './input/use-keyboard';
import type { McpStatusSource } from './overlays/mcp-lines';
import { useMcpFlash } from './status/use-mcp-flash';
import type { ChildEventSource } from './usage/child-usage';
import { useChildUsage } from './usage/use-child-usage';
import { useLiveUnfolded } from './tree/use-live-unfolded';
import { usePrepareCall } from './prompt/use-prepare-call';
import { useSessionStart, type SessionStartHook } from './screen/use-session-start';
import { useSessionView } from './screen/use-session-view';
import { useStoreVersion } from './screen/use-store-version';
import { useTerminalSize, type TerminalSize } from './screen/use-terminal-size';
import { submitPrompt, type SubmitContext } from './commands/submit-prompt';
import type { PickerSession } from './picker/picker-rows';
import { switchSession } from './commands/run-command';
import { SessionPicker } from './picker/SessionPicker';
import { switchBlocker, type SessionSwitching } from './picker/session-switch';
import { useOpenTurns, useTurnController } from './screen/use-turns';
import { LiveTurnScope, useTurnShape } from './screen/live-turn-scope';
import { useUiState, type HistorySource } from './screen/use-ui-state';
import { usePaneContent } from './panes/use-pane-content';
import { useTaskState } from './screen/use-task-state';
import { planStatus } from './overlays/plan-lines';
import { PlanOverlay } from './overlays/PlanOverlay';
import { useSyncAlert, type SyncStatusSource } from './status/use-sync-alert';

export interface AppProps {
  readonly store: SessionStore;
  readonly agent: TurnAgent;
  /** The interactive approver the Agent was built with (`createTuiApprover()`). */
  readonly approvals: ApprovalQueue;
  /** The approval policy, for the `a` key (allow a Write tool for the session). */
  readonly policy: SessionAllowance | null;
  readonly theme: Theme;
  readonly noColor: boolean;
  readonly readOnly?: boolean;
  /** Shown when the screen opens, e.g. "torn tail repaired at line 12". */
  readonly notices?: readonly string[];
  /** Slash commands the host adds (`/compact`, `/fork`). */
  readonly commands?: readonly HostCommand[];
  /** Fixed size (tests); otherwise the terminal's, following resizes. */
  readonly size?: TerminalSize;
  /** Settle what a crash left behind as soon as the screen opens (default true). */
  readonly resumeOnOpen?: boolean;
  readonly loadTheme?: (spec: string) => Theme;
  /** The host's turn controller (runTui makes one to stop turns on signals); else the App makes its own. */
  readonly turns?: TurnController;
  /** The keymap in force: the defaults with the config's overrides (default: the defaults). */
  readonly keymap?: readonly Binding[];
  /** Local servers and, when no provider is usable, the first-run panel. */
  readonly setup?: ProviderSetup;
  /** `agent.sessionStart`, run once the screen is open on a writable session. */
  readonly sessionStart?: SessionStartHook;
  /** The background sync to the team's server: a failure stays in the status bar until it works again. */
  readonly sync?: SyncStatusSource;
  /** The session's MCP servers: failures are flashed, and `?` lists their tools. */
  readonly mcp?: McpStatusSource;
  /** The session's sub-agents: the usage pane lists each with its cost while it runs. */
  readonly subAgents?: ChildEventSource;
  /** Writes control sequences straight to the terminal (`/copy`'s OSC 52); absent, /copy says it cannot. */
  readonly writeTerminal?: (data: string) => void;
  /** `/new` and `/resume`: the host changes sessions without leaving the screen; absent, they say they cannot. */
  readonly sessions?: SessionSwitching;
  /** Said (info) when the screen opens and there are no notices: "switched to session …". */
  readonly opened?: string;
  /** The multiplexer tole runs in (`multiplexerOf(env)`): `/copy` passes its sequence through it. */
  readonly multiplexer?: Multiplexer;
  /** Inside tmux: asked by `/copy` whether the clipboard sequence gets through. */
  readonly tmux?: TmuxClipboard;
  /** A bell and OSC 9 through `writeTerminal` when an approval waits or a long turn ends unfocused; absent, none. */
  readonly signals?: Signals;
  /** True while the host opens another session (`/new`, `/resume`): prompts wait, so none lands in the one left. */
  readonly switching?: boolean;
  /** Told of a `/theme` change, so that the next session's screen keeps it. */
  readonly onTheme?: (theme: Theme) => void;
  /** The prompts sent on the screen before this session opened on it (↑ brings them back). */
  readonly history?: HistorySource;
  /** Ctrl-G: the prompt in the user's editor ($EDITOR), the screen taken down meanwhile; absent, Ctrl-G says it cannot. */
  readonly editText?: (text: string) => EditorResult;
  /** Prompt templates: `/name` sends the file's text with the arguments put in. */
  readonly templates?: readonly PromptTemplate[];
  /** Keeps a sent prompt in the workspace's history (across restarts); a failure is flashed. */
  readonly rememberPrompt?: (prompt: string) => void;
  /** Told of each prompt added to the history, so that the next session's screen keeps it. */
  readonly onHistory?: (history: readonly string[]) => void;
  /** The workspace's paths for `@` completion (indexed off the key path); absent, `@` offers none. */
  readonly paths?: WorkspacePathSource;
  /** The values `/command ` completes to (profiles, sessions, models), as known now; absent, none. */
  readonly argumentsOf?: (command: string) => readonly CompletionItem[] | null;
  /** The server's models, for `/model ` completion (this session's provider); absent, `/model ` offers none. */
  readonly models?: AskedValues;
  /** The workspace: a prompt's `@path` mentions are read from it before sending, and one that cannot be read stops the send. */
  readonly workspaceRoot?: string;
  readonly onQuit: () => void;
  /** The turn loop threw: the host restores the terminal and exits non-zero. */
  readonly onCrash: (error: unknown) => void;
}

/**
 * The screen. The turn controller is read once, by `LiveTurnScope`: a streamed frame draws the
 * scope and the parts that show the streamed text, not the screen under it (`AppScreen`, made
 * here, is left as it is unless the App's own props change).
 */
export function App(props: AppProps) {
  const { store } = props;
  const turns = useTurnController({
    store,
    agent: props.agent,
    readOnly: props.readOnly ?? store.readOnly,
    given: props.turns,
    onCrash: props.onCrash,
  });
  return (
    <LiveTurnScope turns={turns} now={() => store.now()}>
      <AppScreen {...props} controller={turns} />
    </LiveTurnScope>
  );
}

function AppScreen(props: AppProps & { readonly controller: TurnController }) {
  const { store, agent, approvals, policy, noColor } = props;
  const readOnly = props.readOnly ?? store.readOnly;
  const [theme, setTheme] = useState(props.theme);
  const themeValue = useMemo(() => themeView(theme, noColor), [theme, noColor]);
  const terminal = useTerminalSize();
  const size = props.size ?? terminal;
  const version = useStoreVersion(store);
  const { ui, current, dispatch } = useUiState(props.history);
  const { onHistory } = props;
  useEffect(() => onHistory?.(ui.history), [ui.history, onHistory]);
  const turns = props.controller;
  const sessionStart = useSessionStart(readOnly ? undefined : props.sessionStart, () => turns, dispatch);
  useOpenTurns(turns, { store, resumeOnOpen: props.resumeOnOpen ?? true, onOpen: sessionStart.start });
  // The live turn without its streamed text: the screen is drawn again when it moves, not for a token.
  const turn = useTurnShape();
  const pending = useSyncExternalStore(approvals.subscribe, approvals.getSnapshot);
  const keymap = props.keymap ?? KEYMAP;
  // A session with something in it opens on its panes (it can be browsed); /connect brings the panel.
  const firstRun = useFirstRun(props.setup, props.setup?.missing === true && store.tree.size === 0, agent, dispatch);
  const setupOpen = firstRun.state.open && pending === null;
  const advice = useErrorFlash(
    turn.lastError,
    agent.model,
    keyFor('history-previous', keymap, 'input') ?? '↑',
    dispatch,
  );
  const children = useChildUsage(store, props.subAgents);
  useLiveUnfolded(props.subAgents, store, ui.unfolded, dispatch);
  const view = useSessionView(store, version, ui.viewHead, children);
  const task = useTaskState(view);
  const finder = useMemo(() => new TreeFinder((id) => store.entry(id)), [store]);
  // The session's commands refuse what its state does not allow: a turn (or work in its place) holds the lock.
  const session = useMemo(() => new SessionCommands(store, agent, () => turns.running, turns), [store, agent, turns]);
  const matches = finder.search(view.rows, view.labels, ui.find);
  // The find field's first key finds the entries' texts worked out while it waited.
  useEffect(() => {
    if (ui.field?.kind === 'find') finder.prepare(view.rows);
  }, [ui.field?.kind, finder, view.rows]);
  const running = turn.phase !== 'idle';
  const focusChanged = useSignals({
    signals: props.signals,
    write: props.writeTerminal,
    via: props.multiplexer ?? null,
    waiting: pending ? { callId: pending.request.callId, tool: pending.request.tool } : null,
    running,
  });
  useFlashFade(ui.flash, current, dispatch);
  useMcpFlash(props.mcp, dispatch);
  useEffect(() => {
    if (props.notices && props.notices.length > 0)
      dispatch({ type: 'flash', flash: { level: 'warn', text: props.notices.join(' · '), sticky: true } });
    else if (props.opened) dispatch({ type: 'flash', flash: { level: 'info', text: props.opened } });
    // Shown once, when the screen opens.
  }, []);

  // The files prompt waits behind an approval prompt: one prompt holds the keyboard at a time.
  const dialog = pending === null ? ui.dialog : null;
  const prompt = promptLayout(ui.editor, turn.queue, size.columns, turn.steering, ui.editing?.entryId ?? null);
  const queueOpen = ui.queueOpen && turn.queue.length > 0;
  useEffect(() => {
    // The list closes by itself once the queue has drained.
    if (ui.queueOpen && turn.queue.length === 0) dispatch({ type: 'queue-list', open: false });
  }, [ui.queueOpen, turn.queue.length, dispatch]);
  const flash = ui.flash ? flashLines(ui.flash, size.columns) : [];
  // While a call waits, its box may take most of the screen: what will run matters more than the panes.
  const maxApproval = Math.max(6, Math.floor((size.rows - 1) * 0.75));
  const approvalField = openField(ui.approvalField, pending);
  const offers = useMemo(() => (pending ? approvalOffers(pending, policy) : null), [pending, policy]);
  const approvalViewNow = useMemo(
    () => (pending && offers ? approvalViewAt(pending, size.columns, approvalField, offers) : null),
    [pending, size.columns, approvalField, offers],
  );
  const ownScroll = pending && ui.approvalScroll?.callId === pending.request.callId ? ui.approvalScroll : null;
  const approvalTop = ownScroll?.top ?? 0;
  const approvalSeen = ownScroll?.seen ?? 0;
  const approval = approvalViewNow ? approvalBox(approvalViewNow, maxApproval, approvalTop) : null;
  const usageWidth = paneInnerSize(sidePaneWidth(size.columns), 0).width;
  const content = usePaneContent({
    store,
    agent,
    view,
    shape: turn,
    liveNow: turns.getSnapshot,
    ui,
    awaitingApproval: pending !== null,
    usageWidth,
    readOnly,
    task,
  });
  const commands = useMemo(
    () => [
      ...BUILT_IN_COMMANDS,
      ...(props.commands ?? []),
      ...(props.templates ?? []).map((t) => ({
        name: t.name,
        args: '[args]',
        help: `${t.description || 'a prompt template'} (${t.from} template)`,
      })),
    ],
    [props.commands, props.templates],
  );
  const promptHasKeys =
    ui.focus === 'input' && !pending && !dialog && !ui.helpOpen && !setupOpen && !queueOpen && !ui.field;
  const completionSources = {
    commands,
    argumentsOf: props.argumentsOf ?? (() => null),
    paths: props.paths ?? null,
    models: props.models ?? null,
  };
  const completion = useCompletion(ui, completionSources, promptHasKeys);
  const note =
    completion === null && promptHasKeys && !popupChoice(ui).closed
      ? completionNote(ui.editor, completionSources)
      : null;
  const popup = completion
    ? popupLines(
        completion.items,
        popupChoice(ui).selected,
        popupRoom(size.rows, completion.items.length),
        size.columns,
      )
    : note !== null
      ? popupNoteLines(note, popupRoom(size.rows, 1), size.columns)
      : [];
  const layout = screenLayout({
    columns: size.columns,
    rows: size.rows,
    focus: ui.focus,
    promptHeight: prompt.height,
    approvalHeight: approval
      ? approval.height
      : dialog
        ? filesDialogHeight(dialog, size.columns, maxApproval)
        : ui.field
          ? 1
          : 0,
    flashHeight: flash.length + popup.length,
    usageLines: content.usageLineCount,
  });
  const panes = content.forLayout(layout);

  const quit = (): void => props.onQuit();
  const refusal = props.switching
    ? 'another session is being opened: send this once it shows (your prompt stays here)'
    : firstRun.state.missing
      ? `no model provider yet: /connect finds a local server, or set OPENAI_API_KEY (or --base-url) and start tole again; your prompt stays here`
      : sessionStart.blocked;
  usePrepareCall(agent, ui.editor.value, !readOnly && refusal === null);
  const submitContext: SubmitContext = {
    store,
    session,
    agent,
    turns,
    readOnly,
    headId: view.head.entryId,
    hostCommands: props.commands ?? [],
    current,
    dispatch,
    setTheme: (next) => {
      setTheme(next);
      props.onTheme?.(next);
    },
    loadTheme: props.loadTheme ?? loadThemeFile,
    quit,
    runTask: (task, work) => turns.runTask(task, work),
    templates: props.templates ?? [],
    remember: (prompt) => {
      try {
        props.rememberPrompt?.(prompt);
      } catch (error) {
        dispatch({
          type: 'flash',
          flash: {
            level: 'warn',
            text: `the prompt history could not be written (${(error as Error)?.message ?? String(error)}): the prompt itself is sent`,
          },
        });
      }
    },
    refusedMentions: props.workspaceRoot ? refusedMentionsIn(props.workspaceRoot) : null,
    openSetup: firstRun.keys ? firstRun.keys.open : null,
    writeTerminal: props.writeTerminal ?? null,
    multiplexer: props.multiplexer ?? null,
    tmux: props.tmux ?? null,
    refusal,
    sessions: props.sessions ?? null,
    busy: () =>
      switchBlocker({
        running: turns.running,
        approving: approvals.getSnapshot() !== null,
        queued: turns.getSnapshot().queue.length,
        dialogOpen: current().dialog !== null,
      }),
  };
  const keyContext: KeyContext = {
    get ui() {
      return current();
    },
    get pending() {
      return approvals.getSnapshot();
    },
    dispatch,
    view,
    store,
    turns,
    agent,
    session,
    approvals,
    policy,
    readOnly,
    approvalScroll: approval ? approvalScrollOf(approval, approvalSeen) : null,
    treePage: Math.max(1, (layout.tree?.height ?? 10) - 3),
    transcriptPage: Math.max(1, panes.transcriptHeight - 2),
    scrollTranscript: panes.scrollTranscript,
    topOfTranscript: panes.topOfTranscript,
    submit: (text, how) => submitPrompt(submitContext, text, how),
    quit,
    keymap,
    setup: setupOpen ? firstRun.keys : null,
    paneAt: (column, row) => paneAt(layout, column, row),
    editText: props.editText ?? null,
    completion,
    completionNow: () => completionList(current().editor, completionSources, true),
    matches,
    editField: (editor) => {
      const before = current().field?.editor.value;
      dispatch({ type: 'field-edit', editor });
      const state = current();
      // The selection goes to the first match of what is searched now; a move of the cursor searches nothing new.
      if (state.field?.kind === 'find' && editor.value !== before)
        followSearch({ view, dispatch, ui: state }, finder.search(view.rows, view.labels, editor.value));
    },
  };
  useKeyboard(
    (input, key) => {
      // The session picker (/resume) reads the keys itself while it is open.
      if (current().picker === null) handleKey(keyContext, input, key);
    },
    (text) => {
      if (current().picker === null) handlePaste(keyContext, text);
    },
    focusChanged,
  );
  // The picker (its own key listener) lets go of the keyboard before the next key.
  useFlushedEffects(ui.picker === null);
  const choose = (chosen: PickerSession): void => {
    dispatch({ type: 'picker', picker: null });
    if (chosen.path === store.path)
      return dispatch({ type: 'flash', flash: { level: 'info', text: `${chosen.id} is the session open here` } });
    const busy = submitContext.busy();
    if (busy) return dispatch({ type: 'flash', flash: { level: 'warn', text: `/resume: ${busy}` } });
    switchSession(submitContext, { kind: 'resume', ref: chosen.path }, `opening ${chosen.id}…`);
  };

  const conditions = keyConditions({
    running,
    focus: ui.focus,
    editorEmpty: ui.editor.value === '',
    offers,
    readOnly,
    taskCall: ui.focus === 'tree' ? selectedTaskCall(store, view.rows, ui, view.head.entryId) : null,
    restoreOffered: restoreOffered(dialog),
    approvalScrolls: (approval?.maxTop ?? 0) > 0,
  });
  // An open field of the approval box takes the keys: the bar names its keys, as the box's foot does.
  const hints = approvalField
    ? approvalFieldKeys(approvalField)
    : hintsFor(
        activeScopes(
          ui.focus,
          pending !== null,
          ui.helpOpen,
          setupOpen,
          dialog?.kind ?? null,
          queueOpen,
          ui.field?.kind ?? null,
          completion !== null,
        ),
        conditions,
        keymap,
      );
  const placeholder = promptPlaceholder({
    readOnly,
    approving: pending && offers ? approvalPlaceholder(pending, approvalField, offers) : null,
    running,
    setupOpen,
    noProvider: firstRun.state.missing,
  });
  const syncAlert = useSyncAlert(props.sync, Date.now);
  const alert = firstRun.state.missing
    ? 'no provider'
    : advice
      ? advice.status
      : sessionStart.blocked
        ? 'blocked by a hook'
        : syncAlert;
  const using = firstRun.state.using;

  if (ui.picker)
    return (
      <ThemeContext.Provider value={themeValue}>
        <SessionPicker
          sessions={ui.picker.sessions}
          cwd={ui.picker.cwd}
          home={ui.picker.home}
          nowMs={ui.picker.nowMs}
          keymap={keymap}
          size={size}
          leaveHint="back"
          onChoose={choose}
          onQuit={() => dispatch({ type: 'picker', picker: null })}
        />
      </ThemeContext.Provider>
    );

  return (
    <ThemeContext.Provider value={themeValue}>
      <Box flexDirection="column" width={size.columns} height={layout.lines} overflow="hidden">
        {ui.helpOpen && ui.costOpen ? (
          <LiveCostOverlay
            store={store}
            view={view}
            agent={agent}
            requestTokens={content.requestTokens}
            width={size.columns}
            height={layout.panesHeight}
            offset={ui.helpOffset}
          />
        ) : ui.helpOpen && ui.planOpen ? (
          <PlanOverlay task={task} width={size.columns} height={layout.panesHeight} offset={ui.helpOffset} />
        ) : ui.helpOpen ? (
          <HelpOverlay
            commands={commands}
            width={size.columns}
            height={layout.panesHeight}
            offset={ui.helpOffset}
            keymap={keymap}
            report={ui.report}
            {...(props.mcp ? { mcp: props.mcp } : {})}
          />
        ) : queueOpen ? (
          <ListOverlay
            title={`queued prompts · ${turn.queue.length} (sent in this order after the turn)`}
            rows={turn.queue.map((text, i) => [seg(`${i + 1}. `, 'faint'), seg(oneLine(text), 'text')])}
            selected={Math.min(ui.queueIndex, turn.queue.length - 1)}
            width={size.columns}
            height={layout.panesHeight}
          />
        ) : setupOpen && props.setup ? (
          <FirstRunPanel
            setup={props.setup}
            state={firstRun.state}
            keymap={keymap}
            width={size.columns}
            height={layout.panesHeight}
          />
        ) : (
          <Panes
            layout={layout}
            focus={ui.focus}
            store={store}
            view={view}
            selected={panes.selected}
            transcript={panes.transcript}
            usage={panes.usage}
            registers={panes.registers}
            matches={matches?.ids ?? null}
            unfolded={ui.unfolded}
          />
        )}
        {flash.length > 0 ? <FlashLine lines={flash} /> : null}
        {pending && approval ? <ApprovalPrompt pending={pending} width={size.columns} box={approval} /> : null}
        {dialog ? <FilesDialogPrompt dialog={dialog} width={size.columns} maxHeight={maxApproval} /> : null}
        {ui.field && !pending && !dialog ? (
          <FieldLine field={ui.field} matches={matches} focus width={size.columns} />
        ) : null}
        {popup.length > 0 ? <CompletionPopup lines={popup} /> : null}
        <PromptLine
          layout={prompt}
          focused={ui.focus === 'input' && !pending && !dialog && !ui.helpOpen && !setupOpen && !queueOpen && !ui.field}
          placeholder={placeholder}
          width={size.columns}
        />
        <LiveStatusBar
          machine={view.machine.pc}
          seq={store.lastSeq}
          model={firstRun.state.missing ? 'no model' : using ? `${agent.model} on ${using.name}` : agent.model}
          sessionId={store.header.id}
          readOnly={readOnly}
          allowances={allowancesInForce(policy)}
          alert={alert}
          plan={planStatus(task)}
          hints={hints}
          width={size.columns}
          cost={
            layout.narrow
              ? { agent, summary: view.usage, requestTokens: content.requestTokens, fill: content.fill }
              : null
          }
        />
      </Box>
    </ThemeContext.Provider>
  );
}

/** The refusals of a prompt's `@path` mentions in `root`, read as the turn will read them. */
function refusedMentionsIn(root: string): (prompt: string) => Promise<readonly string[]> {
  return async (prompt) => (await readPromptAttachments(root, prompt)).refusals;
}
