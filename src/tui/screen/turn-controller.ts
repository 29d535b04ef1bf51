import { notifyNow, notifySoon } from './screen-updates';
import type { StreamedFrames } from '../frame/frame-pacer';
import type { KnownWindow } from '../usage/known-window';
import type { AttemptReport, TokenUsage } from '../../core/provider/provider';
import type { AnyEntry } from '../../core/tree/entry-types';
import type { EventSink, SessionEvent, TurnOutcome } from '../../core/session/events';
import type { RestoreOutcome, RestorePreview } from '../../core/session/restore-files';
import type { Risk } from '../../core/approval/risk';
import type { PromptRunner } from '../../core/session/prompt-runner';
import { shellCommandOf } from '../../core/session/shell-command';

/** What the screen needs of the Agent: tests hand in a fake with the same shape. */
export interface TurnAgent {
  model: string;
  /** The model's context window as far as it was learned (the usage pane shows it). */
  readonly knownWindow?: KnownWindow;
  /** The session's budget in US dollars (`limits.maxSessionCostUsd`), sub-agents included; null or absent when none is set. */
  readonly budgetUsd?: number | null;
  /** Calls the listener when `knownWindow` was learned from the server (possibly after a turn); returns the unsubscribe. */
  onWindowLearned?(listener: () => void): () => void;
  /** The user is writing a prompt: get the model call ready (load the client, learn the window); sends no prompt. */
  prepare?(): void;
  /** Tokens the next model call would send from the end of `path`, estimated (the context fill and live input). */
  requestTokensEstimate?(path?: readonly AnyEntry[]): number;
  /** What a call of the current model with this usage costs (the live cost while a reply streams). */
  priceUsage?(usage: TokenUsage): { readonly costUsdMicros: number; readonly priced: boolean };
  runTurn(prompt: string, signal: AbortSignal, emit: EventSink): Promise<unknown>;
  /** `!command`: runs the user's shell command through the bash tool, between turns; the model is not called. */
  runShell?(command: string, signal: AbortSignal, emit: EventSink): Promise<unknown>;
  resume(signal: AbortSignal, emit: EventSink): Promise<number>;
  /** Workspace checkpoints: what restoring the files to an entry would change, and the restore. */
  previewRestore?(entryId: string): Promise<RestorePreview>;
  restoreFiles?(entryId: string, emit: EventSink, signal?: AbortSignal): Promise<RestoreOutcome>;
  /** Whether a checkpoint holds the files as they were at the entry (none: nothing to restore). */
  hasCheckpointFor?(entryId: string): boolean;
  /** Asks the model again from an entry in the tree, as a new sibling branch. */
  retry(fromEntryId: string, signal: AbortSignal, emit: EventSink): Promise<unknown>;
  /** Sends text into the running turn, for its next model call (again: replaces it); false when no turn runs. */
  steer(text: string): boolean;
  /** Steering text the turn ended without sending, taken back (null when there is none). */
  takeSteering(): string | null;
}

export interface ActiveTool {
  readonly callId: string;
  readonly tool: string;
  readonly subject: string;
  readonly risk: Risk;
  readonly startedAtMs: number;
}

/**
 * The open model stream of the current attempt: when it opened, when data last came, and the
 * limits after which tole gives up on it. `lastDataAtMs` moves with every delta without a redraw
 * of its own (the screen's clock tick reads it).
 */
interface StreamWait {
  readonly openedAtMs: number;
  lastDataAtMs: number | null;
  readonly firstTokenLimitMs: number;
  readonly idleLimitMs: number;
}

/** The live part of a turn, which is not in the session file yet. */
export interface LiveTurn {
  readonly phase: 'idle' | 'resuming' | 'running';
  readonly startedAtMs: number | null;
  /** Assistant text streamed so far in the current model call. */
  readonly text: string;
  readonly reasoning: string;
  /** The model's refusal streamed so far (it declined to answer). */
  readonly refusal: string;
  /** The open stream, while one is open. */
  readonly stream: StreamWait | null;
  /**
   * A model call is under way whose usage has not come back: from its stream opening (or its
   * first streamed text) to its attempt's end. Its cost is estimated meanwhile.
   */
  readonly callOpen: boolean;
  /** The last failed attempt of the current model call, while it is being retried, and when it was reported. */
  readonly retry: AttemptReport | null;
  readonly retryAtMs: number | null;
  /** The tool calls in flight, in the calls' order: several at once when ReadOnly calls run side by side. */
  readonly activeTools: readonly ActiveTool[];
  readonly queue: readonly string[];
  /** Text sent into the running turn that has not gone in yet (it goes with the next model call). */
  readonly steering: string | null;
  readonly interrupting: boolean;
  readonly lastOutcome: TurnOutcome | null;
  /** Work that runs in a turn's place (a `/compact`, the sessionStart hooks): "compacting the conversation". */
  readonly task: string | null;
  /** What the running work does that Esc cannot stop part way (a restore writing its files), or null: Esc stops it. */
  readonly unstoppable: string | null;
  /** The provider error the last turn ended with; cleared when the next turn starts. */
  readonly lastError: TurnError | null;
}

/** A model call that failed for good: what the Agent said about it. */
export interface TurnError {
  readonly kind: string;
  readonly message: string;
  readonly hint: string;
}

/**
 * Streamed text reaches the screen at most this often: 20 frames a second (a frame's own time
 * comes on top, since the wait starts at the first text after a frame). Most of a streamed
 * reply's CPU is per frame; at 30 a second it was ~1.1x this. The text that ends a stream is not
 * held back (it is published at the attempt's end, and drawn at once: frame-pacer.ts).
 */
export const FRAME_MS = 50;

/** The live turn with no reply on its way: nothing streamed, no call open, no retry waiting. */
const NO_LIVE_REPLY = {
  text: '',
  reasoning: '',
  refusal: '',
  stream: null,
  callOpen: false,
  retry: null,
  retryAtMs: null,
} as const satisfies Partial<LiveTurn>;

const IDLE: LiveTurn = {
  phase: 'idle',
  startedAtMs: null,
  ...NO_LIVE_REPLY,
  activeTools: [],
  queue: [],
  steering: null,
  interrupting: false,
  lastOutcome: null,
  task: null,
  unstoppable: null,
  lastError: null,
};

interface TurnControllerOptions {
  readonly agent: TurnAgent;
  readonly nowMs: () => number;
  /** The turn loop threw (a bug, or storage that can no longer commit): the host must stop. */
  readonly onCrash: (error: unknown) => void;
  readonly readOnly?: boolean;
  /** Told when streamed text is due and when it was published (the frame pacer draws other commits with it). */
  readonly frames?: StreamedFrames;
  /** Told when a turn (or task) starts and when it has ended: the screen collects garbage only in between. */
  readonly idle?: { afterTurn(): void; cancel(): void };
}

/**
 * Runs turns one at a time for the screen: holds the prompts queued meanwhile (the session's
 * commands decide what is sent, steered or queued: SessionCommands.send), sends them in turn,
 * interrupts on request, and turns the Agent's events into a snapshot the screen reads. Streamed
 * deltas are gathered and published at most once a frame, so a fast model never redraws per token.
 */
export class TurnController implements PromptRunner {
  private state: LiveTurn = IDLE;
  private readonly listeners = new Set<() => void>();
  private abort: AbortController | null = null;
  private pendingText = '';
  private pendingReasoning = '';
  private frameTimer: ReturnType<typeof setTimeout> | null = null;
  private disposed = false;

  constructor(private readonly options: TurnControllerOptions) {}

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): LiveTurn => this.state;

  get running(): boolean {
    return this.state.phase !== 'idle';
  }

  get work(): PromptRunner['work'] {
    if (this.state.phase === 'idle') return 'none';
    return this.state.phase === 'running' && this.state.task === null ? 'turn' : 'other';
  }

  get queued(): readonly string[] {
    return this.state.queue;
  }

  /** Starts a turn for the prompt; a prompt starting with `!` is a shell command the user runs (see `shellCommandOf`). */
  start(prompt: string): boolean {
    if (this.options.readOnly || this.running) return false;
    const { agent } = this.options;
    const command = shellCommandOf(prompt);
    void this.run('running', (signal, emit) =>
      command !== null && agent.runShell ? agent.runShell(command, signal, emit) : agent.runTurn(prompt, signal, emit),
    );
    return true;
  }

  enqueue(prompt: string): void {
    this.publish({ queue: [...this.state.queue, prompt] });
  }

  /** Into the running turn at its next model call; sent again before that call, it replaces the first. */
  steer(text: string): boolean {
    if (!this.options.agent.steer(text)) return false;
    this.publish({ steering: text });
    return true;
  }

  /** Asks again from an entry as a new sibling branch (`r` in the tree, `/retry`). False when a turn runs. */
  retry(fromEntryId: string): boolean {
    if (this.options.readOnly || this.running) return false;
    void this.run('running', (signal, emit) => this.options.agent.retry(fromEntryId, signal, emit));
    return true;
  }

  dequeue(index: number): string | null {
    const text = this.state.queue[index];
    if (text === undefined) return null;
    this.publish({ queue: this.state.queue.filter((_, i) => i !== index) });
    return text;
  }

  /** Settles what a crash left behind, before the first prompt. */
  resumeOnOpen(): Promise<void> {
    if (this.options.readOnly || this.running) return Promise.resolve();
    return this.run('resuming', (signal, emit) => this.options.agent.resume(signal, emit));
  }

  /**
   * Runs work that is not a prompt's turn (a `/compact`, the sessionStart hooks) in a turn's
   * place: prompts typed meanwhile queue behind it and Esc stops it. What it throws goes to the
   * caller. Null, without running it, when a turn runs already or the session is read-only.
   */
  async runTask<T>(task: string, work: (signal: AbortSignal, emit: EventSink) => Promise<T>): Promise<T | null> {
    if (this.options.readOnly || this.running || this.disposed) return null;
    const abort = new AbortController();
    this.abort = abort;
    this.options.idle?.cancel();
    this.publish({
      ...IDLE,
      phase: 'running',
      task,
      startedAtMs: this.options.nowMs(),
      queue: this.state.queue,
      lastError: this.state.lastError,
    });
    try {
      return await work(abort.signal, this.onEvent);
    } finally {
      this.settle(this.state.lastOutcome);
    }
  }

  /**
   * Stops the running turn: its stream or tool is cancelled and core settles it as interrupted.
   * Returns the prompts that were queued behind it, which are not sent.
   */
  interrupt(): string[] {
    if (!this.abort) return [];
    this.options.agent.takeSteering();
    const steering = this.state.steering;
    const queued = [...(steering === null ? [] : [steering]), ...this.state.queue];
    this.abort.abort();
    this.publish({ interrupting: true, queue: [], steering: null });
    return queued;
  }

  /** Interrupts the running turn and waits (at most `timeoutMs`) for core to settle it. */
  async stop(timeoutMs: number): Promise<void> {
    if (!this.running) return;
    this.interrupt();
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, timeoutMs);
      const unsubscribe = this.subscribe(() => {
        if (!this.running) done();
      });
      function done(): void {
        clearTimeout(timer);
        unsubscribe();
        resolve();
      }
    });
  }

  dispose(): void {
    this.disposed = true;
    this.options.idle?.cancel();
    this.abort?.abort();
    if (this.frameTimer) clearTimeout(this.frameTimer);
    this.options.frames?.flushed(false);
    this.listeners.clear();
  }

  private async run(
    phase: 'resuming' | 'running',
    work: (signal: AbortSignal, emit: EventSink) => Promise<unknown>,
  ): Promise<void> {
    const abort = new AbortController();
    this.abort = abort;
    this.options.idle?.cancel();
    this.publish({ ...IDLE, phase, startedAtMs: this.options.nowMs(), queue: this.state.queue });
    try {
      await work(abort.signal, this.onEvent);
    } catch (error) {
      this.abort = null;
      this.flushFrame();
      this.publish({ ...IDLE, lastOutcome: 'error' });
      if (!this.disposed) this.options.onCrash(error);
      return;
    }
    this.settle(this.state.lastOutcome);
  }

  /** The turn or task is over: back to idle, keeping how it ended, and the next queued prompt goes. */
  private settle(lastOutcome: TurnOutcome | null): void {
    this.abort = null;
    this.flushFrame();
    // Steering the turn ended without sending (it failed, or hit a limit) goes first in the queue: it is not lost.
    const unsent = this.options.agent.takeSteering();
    const [next, ...rest] = unsent === null ? this.state.queue : [unsent, ...this.state.queue];
    this.publish({ ...IDLE, queue: rest, lastOutcome, lastError: this.state.lastError });
    // Nothing of the turn's work is left to run: the screen hears of its end (and of the commits
    // that ended it) now, in one notification (see notifyNow).
    notifyNow();
    if (!this.disposed) this.options.idle?.afterTurn();
    if (next !== undefined && !this.disposed) this.start(next);
  }

  private readonly onEvent = (event: SessionEvent): void => {
    if (this.disposed) return;
    switch (event.type) {
      case 'text':
        this.pendingText += event.delta;
        this.noteData();
        this.scheduleFrame();
        return;
      case 'reasoning':
        this.pendingReasoning += event.delta;
        this.noteData();
        this.scheduleFrame();
        return;
      case 'refusal':
        this.noteData();
        this.flushFrame();
        this.publish({ refusal: this.state.refusal + event.delta, callOpen: true });
        return;
      case 'stream-activity':
        this.noteData();
        return;
      case 'stream-open':
        this.publish({
          callOpen: true,
          stream: {
            openedAtMs: this.options.nowMs(),
            lastDataAtMs: null,
            firstTokenLimitMs: event.firstTokenLimitMs,
            idleLimitMs: event.idleLimitMs,
          },
        });
        return;
      case 'discard':
        this.pendingText = '';
        this.pendingReasoning = '';
        this.publish({ text: '', reasoning: '', refusal: '' });
        return;
      case 'attempt':
        this.flushFrame();
        // The attempt's usage row lands right after this: from here it is counted, not estimated.
        if (event.report.outcome === 'ok' || event.report.outcome === 'aborted')
          this.publish({ retry: null, retryAtMs: null, stream: null, callOpen: false });
        else this.publish({ retry: event.report, retryAtMs: this.options.nowMs(), stream: null, callOpen: false });
        return;
      case 'state':
        // The model's reply is committed with this move: the store now shows it, so the live copy goes.
        this.pendingText = '';
        this.pendingReasoning = '';
        this.publish(NO_LIVE_REPLY);
        return;
      case 'tool-call':
        this.publish({
          activeTools: [
            ...this.state.activeTools.filter((active) => active.callId !== event.callId),
            {
              callId: event.callId,
              tool: event.tool,
              subject: event.subject,
              risk: event.risk,
              startedAtMs: this.options.nowMs(),
            },
          ],
        });
        return;
      case 'tool-result':
        this.publish({ activeTools: this.state.activeTools.filter((active) => active.callId !== event.callId) });
        return;
      case 'turn-ended':
        this.flushFrame();
        this.publish({ lastOutcome: event.outcome });
        return;
      case 'error':
        // Drawn at once, before the failure's entry is committed: the flash that says what to do shows with it.
        this.publish({ lastError: { kind: event.kind, message: event.message, hint: event.hint } }, 'now');
        return;
      case 'steered':
        this.publish({ steering: null });
        return;
      case 'restore-writing':
        this.publish({
          task: 'writing the restored files',
          unstoppable:
            'the restore writes its files to its end: stopping part way would leave some restored and others not (its result says how it ended)',
        });
        return;
      case 'turn-started':
      case 'usage':
      case 'approval-needed':
      case 'notice':
      case 'compacted':
        return;
    }
  };

  /** Data came on the open stream: the wait shown for it starts again (no redraw of its own). */
  private noteData(): void {
    if (this.state.stream !== null) this.state.stream.lastDataAtMs = this.options.nowMs();
  }

  private scheduleFrame(): void {
    if (this.frameTimer) return;
    this.frameTimer = setTimeout(() => {
      this.frameTimer = null;
      if (this.drawnWithoutReact()) return;
      this.flushFrame();
      // The screen hears of the text now, inside this timer: the frame pacer lets the next commit
      // through as the streamed one (StreamedFrames.flushed), and a spinner or clock step due at the
      // same moment would otherwise be that commit, leaving the text to wait for the next slot.
      notifyNow();
    }, FRAME_MS);
    this.options.frames?.due(FRAME_MS);
  }

  /**
   * The text gathered for this frame, drawn by the screen's bypass (src/tui/frame/streamed-bypass.ts)
   * if it can vouch for the frame: only the streamed text moves (a call is open, and text and
   * reasoning each were there before, so the turn's shape stays). The listeners are told later
   * (the bypass says when). False: the frame is published as any other.
   */
  private drawnWithoutReact(): boolean {
    const frames = this.options.frames;
    const bypass = frames?.bypass;
    if (!frames || !bypass || (this.pendingText === '' && this.pendingReasoning === '')) return false;
    const before = this.state;
    if (!before.callOpen) return false;
    if (this.pendingText !== '' && before.text === '') return false;
    if (this.pendingReasoning !== '' && before.reasoning === '') return false;
    const next: LiveTurn = {
      ...before,
      text: before.text + this.pendingText,
      reasoning: before.reasoning + this.pendingReasoning,
    };
    if (!bypass.draw(next, before, this.options.nowMs())) return false;
    this.pendingText = '';
    this.pendingReasoning = '';
    this.state = next;
    frames.flushed(false);
    bypass.owe(this.tellAll);
    return true;
  }

  private readonly tellAll = (): void => {
    for (const listener of this.listeners) listener();
  };

  private flushFrame(): void {
    if (this.frameTimer) {
      clearTimeout(this.frameTimer);
      this.frameTimer = null;
    }
    const published = this.pendingText !== '' || this.pendingReasoning !== '';
    this.options.frames?.flushed(published);
    if (!published) return;
    const text = this.state.text + this.pendingText;
    const reasoning = this.state.reasoning + this.pendingReasoning;
    this.pendingText = '';
    this.pendingReasoning = '';
    this.publish({ text, reasoning, callOpen: true });
  }

  /** The snapshot changes now; the screen hears of it once the work under way has run (`notifySoon`), or at once. */
  private publish(change: Partial<LiveTurn>, when: 'soon' | 'now' = 'soon'): void {
    this.state = { ...this.state, ...change };
    for (const listener of this.listeners) {
      if (when === 'now') listener();
      else notifySoon(listener);
    }
  }
}
