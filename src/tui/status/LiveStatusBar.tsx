import type { MachineStateName } from '../../core/machine/machine';
import { callEstimate, withEstimate, type ContextFill } from '../usage/live-cost';
import { useLiveNow } from '../screen/live-turn-scope';
import { statusPhase } from './status-phase';
import { statusUsage } from '../usage/status-usage';
import { markedLead, spinnerStep, StatusBar, type StatusBarProps, type StatusSlot } from './StatusBar';
import type { LiveTurn, TurnAgent } from '../screen/turn-controller';
import { Box, type DOMElement } from 'ink';
import { useRef } from 'react';
import type { BypassNode } from '../frame/streamed-bypass';
import type { UsageSummary } from '../usage/usage-summary';

/** The session's cost as the status bar carries it on a screen too narrow for the usage pane. */
interface StatusCostInput {
  readonly agent: TurnAgent;
  readonly summary: UsageSummary;
  readonly requestTokens: number | null;
  readonly fill: ContextFill | null;
}

interface LiveStatusBarProps extends Omit<StatusBarProps, 'pc' | 'running' | 'queued' | 'usage' | 'spin'> {
  /** The machine's state (the live turn says what it is doing in it). */
  readonly machine: MachineStateName;
  /** On a narrow screen, the cost to carry; else null. */
  readonly cost: StatusCostInput | null;
}

/**
 * The status bar as the live turn moves it: its state (Streaming, Retrying), its spinner, turned
 * by the streamed frames as they come, and on a narrow screen the live cost. It reads the live
 * turn itself (`useLiveNow`); the bar under it is drawn again only when what it shows moved.
 */
export function LiveStatusBar({ machine, cost, ...rest }: LiveStatusBarProps) {
  const { live, vouch } = useLiveNow();
  const box = useRef<DOMElement>(null);
  const slot = useRef<StatusSlot | null>(null);
  const shown = barOf(machine, cost, live);
  // A streamed frame drawn without React (src/tui/frame/streamed-bypass.ts) turns the spinner in
  // the lead's own text node, while nothing else the bar says moves.
  vouch({
    node: () => {
      const bar = slot.current;
      const text = box.current?.childNodes[0];
      const lead = text?.nodeName === 'ink-text' ? text.childNodes[0] : undefined;
      const leaf = lead?.nodeName === 'ink-virtual-text' ? lead.childNodes[0] : undefined;
      if (bar === null || bar.alert || leaf?.nodeName !== '#text') return null;
      // The node holds what the bar rendered, or it is not the lead's.
      return leaf.nodeValue === bar.shown ? (leaf as unknown as BypassNode) : null;
    },
    textFor: (turn) => {
      const bar = slot.current;
      const later = barOf(machine, cost, turn);
      if (bar === null || bar.alert || later.pc !== shown.pc || later.running !== shown.running) return null;
      if (later.queued !== shown.queued || !sameUsage(later.usage, shown.usage)) return null;
      return markedLead(bar, later.running ? spinnerStep() : 0);
    },
  });
  return (
    <Box ref={box} flexDirection="column">
      <StatusBar
        {...rest}
        pc={shown.pc}
        running={shown.running}
        queued={shown.queued}
        usage={shown.usage}
        spin={shown.running ? spinnerStep() : 0}
        slot={slot}
      />
    </Box>
  );
}

/** What the bar says of the live turn. */
function barOf(machine: MachineStateName, cost: StatusCostInput | null, live: LiveTurn) {
  const running = live.phase !== 'idle';
  const estimate =
    cost === null ? null : callEstimate(live, cost.requestTokens, cost.agent, cost.summary.cachedPrefixTokens);
  const usage =
    cost === null
      ? null
      : statusUsage({ estimate, fill: cost.fill, session: withEstimate(cost.summary.session, estimate) });
  return { pc: statusPhase(machine, live), running, queued: live.queue.length, usage };
}

function sameUsage(
  a: { readonly text: string; readonly alert: boolean } | null,
  b: { readonly text: string; readonly alert: boolean } | null,
): boolean {
  return a === b || (a !== null && b !== null && a.text === b.text && a.alert === b.alert);
}
