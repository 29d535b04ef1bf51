import { Box, type DOMElement } from 'ink';
import { type ReactNode, useLayoutEffect, useMemo, useRef } from 'react';
import { FramePacer, FRAME_PACING, StreamedFrames, type FramePacerOptions } from './frame-pacer';
import { BypassContext, StreamBypass } from './streamed-bypass';

/** Ink's root node as tole uses it: the draw after a commit, and the draw now. */
type InkRoot = DOMElement & { onRender: () => void; onImmediateRender: () => void };

/**
 * Ink's root node, reached from any node under it. The build's Ink (src/tui/frame/ink-coupling.ts)
 * calls `onRender` after each commit (its throttled draw) and keeps `onImmediateRender` as the draw
 * itself; if a new Ink moved either, this says so instead of drawing through a throttle unseen.
 */
function inkRootOf(node: DOMElement | null): InkRoot {
  let root = node;
  while (root?.parentNode) root = root.parentNode;
  if (
    root?.nodeName !== 'ink-root' ||
    typeof root.onRender !== 'function' ||
    typeof root.onImmediateRender !== 'function'
  )
    throw new Error(
      "frame pacing: Ink's root node has no onRender/onImmediateRender; check src/tui/frame/PacedFrames.tsx against the new Ink",
    );
  return root as InkRoot;
}

/**
 * Draws each committed frame at once instead of through Ink's render throttle (see
 * frame-pacer.ts), from the commit after its own on; `stream` is what the turn controller says of
 * streamed text. Put it at the top of the tree handed to Ink.
 */
export function PacedFrames({
  children,
  stream,
  pacing = FRAME_PACING,
}: {
  readonly children: ReactNode;
  readonly stream?: StreamedFrames;
  readonly pacing?: FramePacerOptions;
}): ReactNode {
  const anchor = useRef<DOMElement>(null);
  const frames = useMemo(() => stream ?? new StreamedFrames(), [stream]);
  const bypass = useMemo(() => new StreamBypass(), []);
  useLayoutEffect(() => {
    const root = inkRootOf(anchor.current);
    const throttled = root.onRender;
    // A draw while React is behind the screen (streamed frames drawn without it since it last
    // rendered) would show its older text: React is told of the turn instead, and the commit that
    // brings it up to date asks for the frame again. Should that commit not come (nothing of the
    // turn on screen any more), the frame is drawn anyway.
    let waiting = false;
    const draw = (): void => {
      if (bypass.catchUp()) {
        waiting = true;
        setImmediate(() => {
          if (!waiting) return;
          waiting = false;
          root.onImmediateRender();
        });
        return;
      }
      waiting = false;
      root.onImmediateRender();
    };
    const pacer = new FramePacer(draw, frames, pacing);
    root.onRender = pacer.request;
    // A commit waiting for its frame is drawn with the streamed one, which React then draws.
    bypass.attach(root, () => pacer.pending || waiting, frames);
    frames.bypass = bypass;
    return () => {
      pacer.dispose();
      bypass.attach(null);
      if (frames.bypass === bypass) frames.bypass = null;
      if (root.onRender === pacer.request) root.onRender = throttled;
    };
  }, [frames, bypass, pacing]);
  return (
    <BypassContext.Provider value={bypass}>
      <Box ref={anchor} display="none" />
      {children}
    </BypassContext.Provider>
  );
}

/** `tree` under PacedFrames: what runTui and runAlone hand Ink. */
export function paced(tree: ReactNode, stream?: StreamedFrames): ReactNode {
  return <PacedFrames {...(stream ? { stream } : {})}>{tree}</PacedFrames>;
}
