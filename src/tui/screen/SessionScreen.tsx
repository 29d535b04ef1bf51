import { useCallback, useMemo, useRef, useState } from 'react';
import { App, type AppProps } from '../App';
import type { SessionSwitching, SwitchRequest, PickerList } from '../picker/session-switch';
import type { TurnController } from './turn-controller';
import type { HistorySource } from './use-ui-state';

/** What changes with the session the screen shows: its store, its Agent, and what the host wired to them. */
export type ScreenSession = Pick<
  AppProps,
  | 'store'
  | 'agent'
  | 'models'
  | 'approvals'
  | 'policy'
  | 'readOnly'
  | 'notices'
  | 'commands'
  | 'setup'
  | 'sessionStart'
  | 'sync'
  | 'mcp'
  | 'subAgents'
  | 'opened'
>;

/**
 * The host's side of `/new` and `/resume`. `open` opens the session asked for while the current
 * one is still open (so that when it fails, nothing changed) and rejects with an Error that says
 * why; `release` closes a session the screen has left: its MCP servers, its sync, its store and
 * lock (an empty one it made is removed).
 */
export interface SessionSwitcher {
  list(): PickerList;
  open(request: SwitchRequest, from: ScreenSession): Promise<ScreenSession>;
  release(session: ScreenSession): Promise<void>;
}

interface SessionScreenProps
  extends Omit<AppProps, keyof ScreenSession | 'turns' | 'sessions' | 'switching' | 'onTheme'> {
  readonly session: ScreenSession;
  readonly switcher?: SessionSwitcher;
  /** A turn controller for each session the screen shows (runTui's, to stop a turn on a signal); else the App makes its own. */
  readonly turnsFor?: (session: ScreenSession) => TurnController;
  /** Told when the screen shows another session, with its controller. */
  readonly onSwitched?: (session: ScreenSession, turns: TurnController | undefined) => void;
}

interface Shown {
  readonly session: ScreenSession;
  readonly turns: TurnController | undefined;
  /** Tells the App apart from the one before: a new App, with its own state, for each session shown. */
  readonly serial: number;
}

/**
 * The App over whichever session the screen shows. `/new` and `/resume` change it in place: the
 * other session is opened, a new App is drawn over it in the same frame (the terminal never
 * leaves the screen), and only then is the old one let go.
 */
export function SessionScreen(props: SessionScreenProps) {
  const { session: first, switcher, turnsFor, onSwitched, ...look } = props;
  const [shown, setShown] = useState<Shown>(() => ({ session: first, turns: turnsFor?.(first), serial: 0 }));
  const latest = useRef(shown);
  latest.current = shown;
  const switching = useRef(false);
  const [busy, setBusy] = useState(false);
  // A /theme choice carries over to the next session's screen.
  const theme = useRef(look.theme);
  // So does the prompt history (↑).
  const history = useRef<HistorySource>(look.history ?? []);
  const keepHistory = useCallback((next: readonly string[]) => {
    history.current = next;
  }, []);
  const sessions = useMemo<SessionSwitching | undefined>(
    () =>
      switcher && {
        list: () => switcher.list(),
        open: async (request) => {
          if (switching.current) throw new Error('a session is being opened already');
          switching.current = true;
          setBusy(true);
          try {
            const old = latest.current;
            const next = await switcher.open(request, old.session);
            const turns = turnsFor?.(next);
            const now: Shown = { session: next, turns, serial: old.serial + 1 };
            latest.current = now;
            setShown(now);
            onSwitched?.(next, turns);
            old.turns?.dispose();
            await switcher.release(old.session);
          } finally {
            switching.current = false;
            setBusy(false);
          }
        },
      },
    [switcher],
  );
  return (
    <App
      key={shown.serial}
      {...look}
      theme={theme.current}
      onTheme={(next) => {
        theme.current = next;
      }}
      switching={busy}
      history={history.current}
      onHistory={keepHistory}
      {...shown.session}
      {...(shown.turns ? { turns: shown.turns } : {})}
      {...(sessions ? { sessions } : {})}
    />
  );
}
