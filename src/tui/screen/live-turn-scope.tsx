import { createContext, useContext, useRef, useSyncExternalStore, type ReactNode } from 'react';
import type { LiveTurn, TurnController } from './turn-controller';
import { usePacedStep } from './use-paced-step';
import { BypassContext, useLiveReader, type LiveText } from '../frame/streamed-bypass';

/**
 * The live turn without the text it streams: what the turn is doing (its phase, tools, queue,
 * retry, error), and only whether text, reasoning or a refusal has come. It is a new object only
 * when one of these moves, so what reads it (the App: layout, keys, prompt, tree) is not drawn
 * again for a streamed frame, which changes the text alone.
 */
export type TurnShape = Omit<LiveTurn, 'text' | 'reasoning' | 'refusal'> & {
  readonly hasText: boolean;
  readonly hasReasoning: boolean;
  readonly hasRefusal: boolean;
};

/** The live turn as the screen draws it, and the clock it is drawn at. */
interface LiveNow {
  readonly live: LiveTurn;
  readonly nowMs: number;
}

/** The shape of `live`: `previous` itself when nothing in it moved. */
function turnShape(live: LiveTurn, previous: TurnShape | null): TurnShape {
  const { text, reasoning, refusal, ...rest } = live;
  const shape: TurnShape = {
    ...rest,
    hasText: text !== '',
    hasReasoning: reasoning !== '',
    hasRefusal: refusal !== '',
  };
  if (previous === null) return shape;
  for (const key of Object.keys(shape) as (keyof TurnShape)[]) if (!Object.is(shape[key], previous[key])) return shape;
  return previous;
}

const ShapeContext = createContext<TurnShape | null>(null);
const LiveNowContext = createContext<LiveNow | null>(null);

interface LiveTurnScopeProps {
  readonly turns: TurnController;
  /** The screen's clock (the store's). */
  readonly now: () => number;
  readonly children: ReactNode;
}

/**
 * The one reader of the turn controller on the screen. A streamed frame draws this scope and the
 * few components that show the streamed text (`useLiveNow`: the transcript's tail, the usage
 * pane's figures, the status bar's spinner); its children, made by a parent that did not draw
 * again, are left as they are, and the components that read only the turn's shape
 * (`useTurnShape`) are drawn again only when the shape moves. Both are read in the same render,
 * so no frame shows one without the other.
 *
 * A running turn's clock (elapsed time, countdowns) moves on by itself: a frame a second when
 * nothing else draws the scope (streamed text draws it anyway), for the live readers alone.
 */
export function LiveTurnScope({ turns, now, children }: LiveTurnScopeProps) {
  const live = useSyncExternalStore(turns.subscribe, turns.getSnapshot);
  // The streamed frames drawn without React start from the turn React drew (src/tui/frame/streamed-bypass.ts).
  useContext(BypassContext)?.noteRendered(live);
  const held = useRef<{ shape: TurnShape | null; value: LiveNow | null; step: number }>({
    shape: null,
    value: null,
    step: 0,
  }).current;
  const step = usePacedStep(live.phase !== 'idle', 1000, 40);
  held.shape = turnShape(live, held.shape);
  if (held.value === null || held.value.live !== live || held.step !== step) {
    held.value = { live, nowMs: now() };
    held.step = step;
  }
  return (
    <ShapeContext.Provider value={held.shape}>
      <LiveNowContext.Provider value={held.value}>{children}</LiveNowContext.Provider>
    </ShapeContext.Provider>
  );
}

/** The live turn's shape (see `TurnShape`); drawn again only when it moves. */
export function useTurnShape(): TurnShape {
  const shape = useContext(ShapeContext);
  if (shape === null) throw new Error('useTurnShape outside a LiveTurnScope');
  return shape;
}

/**
 * The live turn with its streamed text, and the clock: drawn again with every streamed frame.
 * `vouch`, called in the same render, hands the screen's bypass (src/tui/frame/streamed-bypass.ts)
 * the caller's text for a later turn; a reader that does not vouch keeps every streamed frame React's.
 */
export function useLiveNow(): LiveNow & { readonly vouch: (text: LiveText) => void } {
  const value = useContext(LiveNowContext);
  const vouch = useLiveReader();
  if (value === null) throw new Error('useLiveNow outside a LiveTurnScope');
  return { ...value, vouch };
}
