import { useEffect, useRef, useState } from 'react';
import { machineState } from '../../core/machine/machine';
import { NS } from '../../core/registers/namespaces';
import type { SessionStore } from '../../core/storage/session-store';
import { TurnController, type TurnAgent } from './turn-controller';

interface TurnsOptions {
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
function needsResume(store: SessionStore): boolean {
  const pc = machineState(store).pc;
  return store.registers.entries(NS.pending).length > 0 || (pc !== 'Idle' && pc !== 'Final');
}

/**
 * The screen's turn controller: the host's, or one the hook makes (and disposes of). It does not
 * read the live turn: `LiveTurnScope` does, so a streamed frame does not draw the whole screen.
 */
export function useTurnController(options: Omit<TurnsOptions, 'resumeOnOpen' | 'onOpen'>): TurnController {
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
  // The controller lives as long as the screen.
  useEffect(() => () => owned?.dispose(), []);
  return options.given ?? owned!;
}

/** Once the screen is open: settles what a crash left behind (when asked to), then calls `onOpen`. */
export function useOpenTurns(
  turns: TurnController,
  options: Pick<TurnsOptions, 'store' | 'resumeOnOpen' | 'onOpen'>,
): void {
  useEffect(() => {
    const settled = options.resumeOnOpen && needsResume(options.store) ? turns.resumeOnOpen() : Promise.resolve();
    void settled.then(() => options.onOpen?.());
    // Once, when the screen opens.
  }, []);
}
