import { Box } from 'ink';
import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import type { SessionStore } from '../core/storage/session-store';
import { ApprovalPrompt, approvalHeight } from './ApprovalPrompt';
import type { ApprovalQueue } from './approval-queue';
import { FlashLine, flashLines } from './FlashLine';
import { HelpOverlay } from './HelpOverlay';
import { handleKey, type KeyContext, type SessionAllowance } from './key-handler';
import { activeScopes, hintsFor, keyConditions } from './keymap';
import { screenLayout, sidePaneWidth } from './layout';
import { innerSize } from './PaneFrame';
import { Panes } from './Panes';
import { promptLayout, promptPlaceholder } from './prompt-layout';
import { PromptLine } from './PromptLine';
import { BUILT_IN_COMMANDS, type HostCommand } from './slash-commands';
import { StatusBar } from './StatusBar';
import { loadTheme as loadThemeFile, type Theme } from './theme';
import { ThemeContext, themeView } from './theme-context';
import type { TurnAgent, TurnController } from './turn-controller';
import { useFlashFade } from './use-flash-fade';
import { useKeyboard } from './use-keyboard';
import { useSessionView } from './use-session-view';
import { useStoreVersion } from './use-store-version';
import { useTerminalSize, type TerminalSize } from './use-terminal-size';
import { useTicker } from './use-ticker';
import { submitPrompt, type SubmitContext } from './submit-prompt';
import { useTurns } from './use-turns';
import { useUiState } from './use-ui-state';
import { usePaneContent } from './use-pane-content';

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
  readonly onQuit: () => void;
  /** The turn loop threw: the host restores the terminal and exits non-zero. */
  readonly onCrash: (error: unknown) => void;
}

export function App(props: AppProps) {
  const { store, agent, approvals, policy, noColor } = props;
  const readOnly = props.readOnly ?? store.readOnly;
  const [theme, setTheme] = useState(props.theme);
  const themeValue = useMemo(() => themeView(theme, noColor), [theme, noColor]);
  const terminal = useTerminalSize();
  const size = props.size ?? terminal;
  const version = useStoreVersion(store);
  const { turns, live } = useTurns({ store, agent, readOnly, given: props.turns, onCrash: props.onCrash, resumeOnOpen: props.resumeOnOpen ?? true });
  const pending = useSyncExternalStore(approvals.subscribe, approvals.getSnapshot);
  const { ui, current, dispatch } = useUiState();
  const view = useSessionView(store, version, ui.viewHead);
  const running = live.phase !== 'idle';
  useTicker(running, 1000);
  useFlashFade(ui.flash, current, dispatch);
  useEffect(() => {
    if (props.notices && props.notices.length > 0) dispatch({ type: 'flash', flash: { level: 'warn', text: props.notices.join(' · '), sticky: true } });
    // Shown once, when the screen opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const prompt = promptLayout(ui.editor, live.queue, size.columns);
  const flash = ui.flash ? flashLines(ui.flash, size.columns) : [];
  const maxApproval = Math.max(6, Math.floor((size.rows - 1) * 0.6));
  const usageWidth = innerSize(sidePaneWidth(size.columns), 0).width;
  const content = usePaneContent({ store, agent, view, live, ui, awaitingApproval: pending !== null, nowMs: store.now(), usageWidth, readOnly });
  const layout = screenLayout({
    columns: size.columns,
    rows: size.rows,
    focus: ui.focus,
    promptHeight: prompt.height,
    approvalHeight: pending ? approvalHeight(pending, size.columns, maxApproval) : 0,
    flashHeight: flash.length,
    usageLines: content.usageLineCount,
  });
  const panes = content.forLayout(layout);
  const commands = useMemo(() => [...BUILT_IN_COMMANDS, ...(props.commands ?? [])], [props.commands]);

  const quit = (): void => props.onQuit();
  const submitContext: SubmitContext = {
    store,
    agent,
    turns,
    readOnly,
    headId: view.head.entryId,
    hostCommands: props.commands ?? [],
    current,
    dispatch,
    setTheme,
    loadTheme: props.loadTheme ?? loadThemeFile,
    quit,
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
    approvals,
    policy,
    readOnly,
    treePage: Math.max(1, (layout.tree?.height ?? 10) - 3),
    transcriptPage: Math.max(1, panes.transcriptHeight - 2),
    scrollTranscript: panes.scrollTranscript,
    topOfTranscript: panes.topOfTranscript,
    submit: (text) => submitPrompt(submitContext, text),
    quit,
  };
  useKeyboard((input, key) => handleKey(keyContext, input, key));

  const conditions = keyConditions({ running, focus: ui.focus, editorEmpty: ui.editor.value === '', offersAllow: pending?.offersAllow === true });
  const hints = hintsFor(activeScopes(ui.focus, pending !== null, ui.helpOpen), conditions);
  const placeholder = promptPlaceholder({ readOnly, approving: pending !== null, running });

  return (
    <ThemeContext.Provider value={themeValue}>
      <Box flexDirection="column" width={size.columns} height={layout.lines} overflow="hidden">
        {ui.helpOpen ? (
          <HelpOverlay commands={commands} width={size.columns} height={layout.panesHeight} offset={ui.helpOffset} />
        ) : (
          <Panes layout={layout} focus={ui.focus} store={store} view={view} selected={panes.selected} transcript={panes.transcript} usage={panes.usage} registers={panes.registers} />
        )}
        {flash.length > 0 ? <FlashLine lines={flash} /> : null}
        {pending ? <ApprovalPrompt pending={pending} width={size.columns} maxHeight={maxApproval} /> : null}
        <PromptLine layout={prompt} focused={ui.focus === 'input' && !pending && !ui.helpOpen} placeholder={placeholder} width={size.columns} />
        <StatusBar
          pc={view.machine.pc}
          seq={store.lastSeq}
          model={agent.model}
          sessionId={store.header.id}
          running={running}
          readOnly={readOnly}
          queued={live.queue.length}
          hints={hints}
          width={size.columns}
        />
      </Box>
    </ThemeContext.Provider>
  );
}
