import { useEffect, useRef } from 'react';
import type { Multiplexer } from '../commands/copy-answer';
import { signalSequence, type NotifySettings } from './terminal-signal';

/** The user's `notify` settings and whether the terminal shows OSC 9 (`showsOsc9(env)`). */
export interface Signals {
  readonly settings: NotifySettings;
  readonly osc9Shown: boolean;
}

interface SignalInputs {
  readonly signals: Signals | undefined;
  readonly write: ((data: string) => void) | undefined;
  readonly via: Multiplexer;
  /** The call whose approval waits, null when none does. */
  readonly waiting: { readonly callId: string; readonly tool: string } | null;
  readonly running: boolean;
}

/**
 * Rings when the user is away: an approval starts waiting, or a turn that ran at least
 * `afterTurnMs` ends, while the terminal is unfocused. The terminal is taken as focused until a
 * focus report says otherwise (one without focus reporting never rings). Returns what to call
 * with each focus report.
 */
export function useSignals({ signals, write, via, waiting, running }: SignalInputs): (report: 'in' | 'out') => void {
  const focused = useRef(true);
  const ring = (text: string): void => {
    if (!signals || !write || focused.current) return;
    const sequence = signalSequence(text, signals.settings, signals.osc9Shown, via);
    if (sequence !== '') write(sequence);
  };
  const callId = waiting?.callId ?? null;
  useEffect(() => {
    if (waiting) ring(`tole: approval waiting: ${waiting.tool}`);
    // Once per call that starts waiting.
  }, [callId]);
  const startedAt = useRef<number | null>(null);
  useEffect(() => {
    if (running) {
      startedAt.current = Date.now();
      return;
    }
    const started = startedAt.current;
    startedAt.current = null;
    if (started !== null && signals && Date.now() - started >= signals.settings.afterTurnMs) ring('tole: turn done');
  }, [running]);
  return (report) => {
    focused.current = report === 'in';
  };
}
