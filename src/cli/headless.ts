import type { SessionEvent } from '../core/session/events';
import type { Agent } from '../core/session/agent';
import type { SessionStore } from '../core/storage/session-store';
import type { OutputFormat } from './args';
import { shellCommandOf } from '../core/session/shell-command';
import { terminalSafeJson } from '../core/terminal-text';
import { totalsOf, type UsageTotals } from '../core/usage/totals';

interface HeadlessIo {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
}

const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
type StopSignal = (typeof STOP_SIGNALS)[number];
/** 128 + the signal's number, as a shell reports a process the signal stopped. */
const SIGNAL_EXIT_CODES: Readonly<Record<StopSignal, number>> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };

/** One turn without a screen: prints the answer (or JSON events) and returns the exit code. */
export async function runHeadless(
  agent: Agent,
  store: SessionStore,
  prompt: string,
  output: OutputFormat,
  io: HeadlessIo,
  notices: readonly string[],
  /** Said in place of the provider's generic hint when the server refuses the key: names the variable. */
  authHint?: string,
): Promise<number> {
  const controller = new AbortController();
  // Every way of being told to stop interrupts the turn: the running tool's process group is
  // killed and its call settled before tole exits, instead of leaving the command running.
  let stoppedBy: StopSignal = 'SIGINT';
  const onSignal = (signal: NodeJS.Signals): void => {
    if (!controller.signal.aborted) stoppedBy = signal as StopSignal;
    controller.abort();
  };
  for (const signal of STOP_SIGNALS) process.once(signal, onSignal);
  const print = (event: SessionEvent | Record<string, unknown>): void => {
    io.stdout.write(`${terminalSafeJson(event)}\n`);
  };
  let authFailure: string | null = null;
  const emit = (event: SessionEvent): void => {
    if (event.type === 'error' && event.kind === 'auth' && authHint) authFailure = `${event.message} (${authHint})`;
    // Tool-call argument progress is for screens that show a wait; as JSON lines it is noise.
    if (output === 'json' && event.type !== 'stream-activity') print(event);
    else if (event.type === 'notice' && event.text) io.stderr.write(`tole: ${event.text}\n`);
    else if (event.type === 'turn-ended' && event.refused)
      io.stderr.write('tole: the model declined to answer; its refusal is printed as the answer\n');
    // Nobody can approve headless: the user must learn what was refused and which flag allows it.
    const refusal = event.type === 'tool-result' ? refusalText(store, event.entryId) : null;
    if (refusal === null) return;
    if (output === 'json') print({ type: 'notice', level: 'warn', text: refusal });
    else io.stderr.write(`tole: ${refusal}\n`);
  };
  for (const notice of notices) {
    if (output === 'json') print({ type: 'notice', level: 'warn', text: notice });
    else io.stderr.write(`tole: ${notice}\n`);
  }
  try {
    const started = await agent.sessionStart(controller.signal, emit);
    if (started?.verdict === 'block') {
      const reason = `a sessionStart hook blocked the session: ${started.blockReason ?? 'no reason given'}`;
      if (output === 'json')
        print({ type: 'result', outcome: 'blocked', text: reason, sessionId: store.header.id, path: store.path });
      else io.stderr.write(`tole: ${reason}\n`);
      return 1;
    }
    const usedBefore = store.usage.length;
    // `!command`: the user's shell command runs as a bash call (denied here when it needs a key).
    const command = shellCommandOf(prompt);
    const result =
      command === null
        ? await agent.runTurn(prompt, controller.signal, emit)
        : await agent.runShell(command, controller.signal, emit);
    const session = { sessionId: store.header.id, path: store.path };
    const usage = runUsage(totalsOf(store.usage.slice(usedBefore)));
    const text = result.outcome === 'error' && authFailure !== null ? authFailure : result.text;
    if (output === 'json') print({ type: 'result', outcome: result.outcome, text, ...session, usage });
    else if (result.outcome === 'done') io.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
    else io.stderr.write(`tole: ${text}\n`);
    if (output === 'text') io.stderr.write(`tole: session ${store.header.id}\n`);
    if (result.outcome === 'done') return 0;
    return result.outcome === 'aborted' ? SIGNAL_EXIT_CODES[stoppedBy] : 1;
  } finally {
    for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
  }
}

/**
 * What this run used, for the result event: its tokens in total and by kind, and its cost in
 * USD; `costKnown` is false when some attempt had no price (the cost is then a lower bound);
 * `costEstimated` is true when some attempt was cut off mid-stream and is counted by tole's estimate.
 */
function runUsage(totals: UsageTotals): Record<string, number | boolean> {
  return {
    totalTokens: totals.inputTokens + totals.outputTokens,
    inputTokens: totals.inputTokens,
    outputTokens: totals.outputTokens,
    cachedInputTokens: totals.cachedInputTokens,
    cacheWriteTokens: totals.cacheWriteTokens,
    costUsd: totals.costUsdMicros / 1_000_000,
    costKnown: !totals.unpriced,
    costEstimated: totals.estimated,
  };
}

/**
 * The words of a denied or blocked call's settlement, or of one a resume settled as outcome
 * unknown (the user must check what the call did: only the model would hear it otherwise), on one
 * line; null for any other result.
 */
function refusalText(store: SessionStore, entryId: string): string | null {
  const entry = store.entry(entryId);
  if (entry?.type !== 'tool_result') return null;
  const { outcome, tool, content, resumedBy } = entry.payload;
  const unknown = outcome === 'interrupted' && resumedBy === 'never-replay';
  if (outcome !== 'denied' && outcome !== 'blocked' && !unknown) return null;
  return `${tool} ${outcome}: ${content.replace(/^denied: /, '').replace(/\s*\n\s*/g, ' ')}`;
}
