import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { machineState } from '../core/machine/machine';
import { NS } from '../core/registers/namespaces';
import type { SessionStore } from '../core/storage/session-store';
import { TurnController, type LiveTurn, type TurnAgent } from './turn-controller';

export interface TurnsOptions {
  readonly store: SessionStore;
  readonly agent: TurnAgent;
  readonly readOnly: boolean;
  /** The host's controller; without one the hook makes (and disposes of) its own. */
  readonly given: TurnController | undefined;
  readonly onCrash: (error: unknown) => void;
  /** Settle what a crash left behind as soon as the screen opens. */
  readonly resumeOnOpen: boolean;
  /** Called once the screen is open and what a crash left is settled (the sessionStart hooks run then). */
  readonly onOpen?: () => void;
}

/** A crash left work behind: an intent without a settlement, or a turn that never reached Final. */
export function needsResume(store: SessionStore): boolean {
  const pc = machineState(store).pc;
  return store.registers.entries(NS.pending).length > 0 || (pc !== 'Idle' && pc !== 'Final');
}

/** The turn controller and its live snapshot, re-read whenever the running turn changes. */
export function useTurns(options: TurnsOptions): { turns: TurnController; live: LiveTurn } {
  const onCrash = useRef(options.onCrash);
  onCrash.current = options.onCrash;
  const [owned] = useState(() =>
    options.given
      ? null
      : new TurnController({
          agent: options.agent,
          nowMs: () => options.store.now(),
          onCrash: (e) => onCrash.current(e),
          readOnly: options.readOnly,
        }),
  );
  const turns = options.given ?? owned!;
  const live = useSyncExternalStore(turns.subscribe, turns.getSnapshot);
  useEffect(() => {
    const settled = options.resumeOnOpen && needsResume(options.store) ? turns.resumeOnOpen() : Promise.resolve();
    void settled.then(() => options.onOpen?.());
    return () => owned?.dispose();
    // The controller lives as long as the screen: this runs once.
  }, []);
  return { turns, live };
}
