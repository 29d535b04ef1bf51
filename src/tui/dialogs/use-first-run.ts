import { useEffect, useRef, useState } from 'react';
import type { LocalServer, ProviderSetup } from './provider-setup';
import type { TurnAgent } from '../screen/turn-controller';
import type { UiAction } from '../screen/ui-state';

export interface FirstRunState {
  /** No provider is usable yet: prompts wait. */
  readonly missing: boolean;
  /** The panel has the keyboard. */
  readonly open: boolean;
  readonly scanning: boolean;
  /** What the last probe found (null before the first one ends). */
  readonly servers: readonly LocalServer[] | null;
  /** The highlighted one among the servers that answered. */
  readonly index: number;
  /** The local server this session uses since it was picked here. */
  readonly using: LocalServer | null;
}

export interface FirstRunKeys {
  move(delta: number): void;
  use(): void;
  rescan(): void;
  close(): void;
  open(): void;
}

/** The servers that answered, in the order they were asked. */
export function answering(servers: readonly LocalServer[] | null): LocalServer[] {
  return (servers ?? []).filter((s) => s.models !== null);
}

/**
 * The first-run panel: probes when it opens, and switches the Agent to the server a key picks.
 * `openAtStart`: it opens with the screen (no provider, and nothing in the session to browse).
 */
export function useFirstRun(
  setup: ProviderSetup | undefined,
  openAtStart: boolean,
  agent: TurnAgent,
  dispatch: (action: UiAction) => void,
): { state: FirstRunState; keys: FirstRunKeys | null } {
  const [state, setState] = useState<FirstRunState>(() => ({
    missing: setup?.missing ?? false,
    open: openAtStart,
    scanning: false,
    servers: null,
    index: 0,
    using: null,
  }));
  const latest = useRef(state);
  latest.current = state;
  const alive = useRef(true);
  const change = (next: Partial<FirstRunState>): void => {
    latest.current = { ...latest.current, ...next };
    if (alive.current) setState(latest.current);
  };

  const rescan = (): void => {
    if (!setup || latest.current.scanning) return;
    change({ scanning: true });
    setup.probe().then(
      (servers) =>
        change({
          scanning: false,
          servers,
          index: Math.min(latest.current.index, Math.max(0, answering(servers).length - 1)),
        }),
      () => change({ scanning: false, servers: [] }),
    );
  };

  useEffect(() => {
    if (latest.current.open) rescan();
    return () => {
      alive.current = false;
    };
    // Probes once when the screen opens with the panel up.
  }, []);

  if (!setup) return { state, keys: null };
  const keys: FirstRunKeys = {
    move: (delta) => {
      const count = answering(latest.current.servers).length;
      if (count > 0) change({ index: (latest.current.index + delta + count) % count });
    },
    use: () => {
      const server = answering(latest.current.servers)[latest.current.index];
      if (!server) {
        dispatch({
          type: 'flash',
          flash: {
            level: 'warn',
            text: latest.current.scanning
              ? 'still looking: wait a moment'
              : 'no local server answered: start one (ollama serve), then r looks again',
          },
        });
        return;
      }
      const model = server.models?.[0];
      if (model === undefined) {
        dispatch({
          type: 'flash',
          flash: {
            level: 'warn',
            text: `${server.name} answers but lists no model: load or pull one (ollama pull llama3.1), then r looks again`,
          },
        });
        return;
      }
      setup.use(server, model);
      agent.model = model;
      change({ missing: false, open: false, using: server });
      dispatch({
        type: 'flash',
        flash: {
          level: 'info',
          text: `using ${server.name} at ${server.baseUrl} with ${model} (/model NAME picks another)`,
        },
      });
    },
    rescan,
    close: () => change({ open: false }),
    open: () => {
      change({ open: true });
      rescan();
    },
  };
  return { state, keys };
}
