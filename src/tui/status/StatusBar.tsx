import { Text } from 'ink';
import { memo, useMemo } from 'react';
import { cellWidth, truncate } from '../text/cell-width';
import { usePacedStep } from '../screen/use-paced-step';
import { useTheme } from '../style/use-theme';

export interface StatusBarProps {
  /** The machine state, or what the live turn is doing in it (statusPhase). */
  readonly pc: string;
  readonly seq: number;
  readonly model: string;
  readonly sessionId: string;
  readonly running: boolean;
  readonly readOnly: boolean;
  readonly queued: number;
  /** What approves calls without asking (`--yes · allow bash:git status*`); null when only keys do. */
  readonly allowances?: string | null;
  /** A problem to keep in sight until it is fixed: `no provider`, `key refused`, `server unreachable`. */
  readonly alert?: string | null;
  /** The branch's plan step (`step 3/7 · writing tests`); null without a plan. */
  readonly plan?: string | null;
  readonly hints: readonly { readonly keys: string; readonly hint: string }[];
  readonly width: number;
  /**
   * The session's cost and context fill, on a screen too narrow for the usage pane
   * (`~$0.0123 · ctx 41k/128k 32%`); `alert` when the window is nearly full.
   */
  readonly usage?: { readonly text: string; readonly alert: boolean } | null;
  /**
   * The spinner's step as the screen around it is drawn (`spinnerStep()`): a redraw of the
   * screen in another step draws the bar too, so the spinner turns with the streamed frames.
   */
  readonly spin?: number;
  /** Filled at each render with what the spinner's step changes (a streamed frame drawn without React turns it). */
  readonly slot?: { current: StatusSlot | null };
}

/** The bar's text that holds the spinner's mark, as last rendered: `lead` unmarked, in its own text unless `alert`. */
export interface StatusSlot {
  readonly lead: string;
  /** The usage alert splits the lead's text: the mark is not in one text node alone. */
  readonly alert: boolean;
  readonly running: boolean;
  /** The lead as rendered (with that render's mark). */
  readonly shown: string;
}

/** Keys the status bar keeps in sight before it gives room to the session id. */
const MIN_HINTS = 3;

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
/** The spinner turns a step this often. */
const SPINNER_MS = 100;
/** How late the bar's own timer turns the spinner when no frame has drawn it (about a frame). */
const SPINNER_SLACK_MS = 40;

/** The spinner's step at this moment (the `spin` prop). */
export function spinnerStep(nowMs = Date.now()): number {
  return Math.floor(nowMs / SPINNER_MS);
}

function sameUsage(a: StatusBarProps['usage'], b: StatusBarProps['usage']): boolean {
  return a === b || (!!a && !!b && a.text === b.text && a.alert === b.alert);
}

function sameHints(a: StatusBarProps['hints'], b: StatusBarProps['hints']): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i]!.keys !== b[i]!.keys || a[i]!.hint !== b[i]!.hint) return false;
  return true;
}

/** Same props, same bar: the App redraws for every streamed frame, the bar only when what it shows moved. */
function sameStatus(a: StatusBarProps, b: StatusBarProps): boolean {
  return (
    a.pc === b.pc &&
    a.seq === b.seq &&
    a.model === b.model &&
    a.sessionId === b.sessionId &&
    a.running === b.running &&
    a.readOnly === b.readOnly &&
    a.queued === b.queued &&
    (a.allowances ?? null) === (b.allowances ?? null) &&
    (a.alert ?? null) === (b.alert ?? null) &&
    (a.plan ?? null) === (b.plan ?? null) &&
    a.width === b.width &&
    a.spin === b.spin &&
    sameUsage(a.usage, b.usage) &&
    sameHints(a.hints, b.hints)
  );
}

/** What the bar says and where it cuts, whatever step the spinner is in (every mark is one cell wide). */
interface BarLayout {
  readonly head: string;
  readonly costPart: string;
  readonly leadShown: string;
  readonly flagShown: string;
  readonly idShown: string;
  readonly gap: number;
  readonly shown: readonly { readonly keys: string; readonly hint: string }[];
}

/** The mark the layout is worked out with; the spinner's mark takes its place (the same width). */
const IDLE_MARK = '●';

function barLayout(
  { pc, seq, model, readOnly, queued, alert, hints, width, sessionId, allowances, plan }: StatusBarProps,
  usage: StatusBarProps['usage'],
): BarLayout {
  // With the cost carried (a narrow screen), the seq gives its room to the keys: the registers pane has it.
  const facts = usage ? [model] : [`seq ${seq}`, model];
  if (readOnly) facts.push('read-only');
  // What runs without a key is said before the rest of the facts, which a narrow screen cuts first.
  if (allowances) facts.unshift(allowances);
  if (queued > 0) facts.push(`${queued} queued`);
  // The cost comes right after the state: on a narrow screen the end of this line is what gets cut.
  const head = ` ${IDLE_MARK} ${pc} · `;
  const costPart = usage ? `${usage.text} · ` : '';
  // The plan's step comes after the cost (it is cut to a few words): what the model is doing now.
  const planPart = plan ? `${plan} · ` : '';
  const lead = `${head}${costPart}${planPart}${facts.join(' · ')}`;
  const flag = alert ? ` ✗ ${alert} ` : '';
  // The first few keys come before the session id: on a narrow screen the id goes (whole: a cut id is no use).
  const id = `${flag ? ' ' : ' · '}${sessionId}`;
  const base = cellWidth(lead) + cellWidth(flag);
  const fitting = (used: number): { keys: string; hint: string }[] => {
    const out: { keys: string; hint: string }[] = [];
    let right = 0;
    for (const h of hints) {
      const w = cellWidth(`${h.keys} ${h.hint}  `);
      if (used + right + w + 2 > width) break;
      out.push(h);
      right += w;
    }
    return out;
  };
  const besideId = fitting(base + cellWidth(id));
  const withId = besideId.length >= Math.min(MIN_HINTS, hints.length);
  const shown = withId ? besideId : fitting(base);
  const rightWidth = shown.reduce((sum, h) => sum + cellWidth(`${h.keys} ${h.hint}  `), 0);
  const leadShown = truncate(lead, Math.max(0, width - rightWidth));
  const flagShown = truncate(flag, Math.max(0, width - rightWidth - cellWidth(leadShown)));
  const idShown = withId ? id : '';
  const gap = Math.max(0, width - cellWidth(leadShown) - cellWidth(flagShown) - cellWidth(idShown) - rightWidth);
  return { head, costPart, leadShown, flagShown, idShown, gap, shown };
}

/** The lead's text as the bar shows it at spinner step `step` (see `StatusSlot`). */
export function markedLead(slot: StatusSlot, step: number): string {
  return marked(slot.lead, slot.running ? SPINNER[step % SPINNER.length]! : IDLE_MARK);
}

/** `text` with the spinner's mark in the idle mark's place (the second cell), where it was not cut off. */
function marked(text: string, mark: string): string {
  return mark !== IDLE_MARK && text.startsWith(` ${IDLE_MARK}`) ? ` ${mark}${text.slice(2)}` : text;
}

/**
 * Machine state, seq, model and session on the left; the focused pane's keys on the right. The
 * spinner turns some ten times a second while a turn runs: the bar is laid out once for what it
 * says, and each step only puts its mark in.
 */
export const StatusBar = memo(function StatusBar(props: StatusBarProps) {
  const { running, usage } = props;
  const theme = useTheme();
  const tick = usePacedStep(running, SPINNER_MS, SPINNER_SLACK_MS);
  const mark = running ? SPINNER[tick % SPINNER.length]! : IDLE_MARK;
  const layout = useMemo(
    () => barLayout(props, usage),
    // What the bar says: the spinner's step is not in it.
    [
      props.pc,
      props.seq,
      props.model,
      props.sessionId,
      props.readOnly,
      props.queued,
      props.allowances,
      props.alert,
      props.plan,
      props.hints,
      props.width,
      usage?.text,
      usage?.alert,
    ],
  );
  const { costPart, flagShown, idShown, gap, shown } = layout;
  const head = marked(layout.head, mark);
  const leadShown = marked(layout.leadShown, mark);
  const status = theme.style('status');
  const alert = !!usage?.alert && leadShown.startsWith(head + costPart);
  if (props.slot) props.slot.current = { lead: layout.leadShown, alert, running, shown: leadShown };
  return (
    <Text wrap="truncate-end">
      {alert ? (
        <>
          <Text {...status}>{head}</Text>
          <Text {...theme.style('statusAlert')}>{usage!.text}</Text>
          <Text {...status}>{leadShown.slice(head.length + usage!.text.length)}</Text>
        </>
      ) : (
        <Text {...status}>{leadShown}</Text>
      )}
      {flagShown ? <Text {...theme.style('statusAlert')}>{flagShown}</Text> : null}
      <Text {...status}>{idShown}</Text>
      <Text {...status}>{' '.repeat(gap)}</Text>
      {shown.map(({ keys, hint }) => (
        <Text key={hint}>
          <Text {...theme.style('statusKey')}>{keys}</Text>
          <Text {...status}>{` ${hint}  `}</Text>
        </Text>
      ))}
    </Text>
  );
}, sameStatus);
