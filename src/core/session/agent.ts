import { ABORTED, raceAbort } from '../abort';
import type { ApprovalRequest, Decision } from '../approval/approver';
import { failsClosed, type HookOutcome } from '../hooks/hook-runner';
import { CasConflictError, machineState, type MachineState } from '../machine/machine';
import { ProviderError } from '../provider/errors';
import { isStorageError } from '../storage/errors';
import type { DraftRecord } from '../storage/records';
import type {
  AttemptReport,
  CompletionEvent,
  CompletionResult,
  TokenUsage,
  ToolCallRequest,
} from '../provider/provider';
import { prepareCall, previewOf, requestFor, resolvedSubjectOf } from './call-request';
import { DEFAULT_READ_CONCURRENCY, readRun, runFanOut } from './read-fan-out';
import type { AgentDeps } from './agent-deps';
import type { AnyEntry } from '../tree/entry-types';
import type { UsageRow } from '../usage/usage-row';
import {
  compactConversation,
  discoverContextWindow,
  estimateTokens,
  thresholdCompactionPossible,
  type CompactionResult,
  type CompactionTrigger,
} from './compaction';
import type { DiscoveredWindow } from '../provider/context-window';
import type { ActiveProfile } from './agent-profile';
import { recordSessionFact, sessionFact, type SessionFactKey } from './session-facts';
import { askApprover } from './ask-approver';
import { askFollowingEdits, riskOfRun } from './edited-call';
import { AppendBatch, checkout, currentHead, laneForAppend } from './cursor';
import type { EventSink, TurnOutcome } from './events';
import { LoopGuard, type RoundCall } from './limits';
import { replanNudge } from './plan-nudges';
import { UPDATE_PLAN_TOOL } from '../tools/builtin/update-plan';
import { PlanWatch } from './plan-watch';
import { requestMessages } from './plan-reinjection';
import { resumePending } from './resume';
import { retryRequested } from './turn-error-retry';
import { NS } from '../registers/namespaces';
import { previewRestore, restoreFiles, restoreTarget, type RestoreOutcome, type RestorePreview } from './restore-files';
import { NO_CHECKPOINT, Sandwich } from './tool-step';
import { addNotices, commitNotices, emitNotices, noticesOf, runHooks, type NoticePayload } from './turn-hooks';

export interface TurnResult {
  readonly outcome: TurnOutcome;
  readonly text: string;
}

/** The turn loop: machine + effect sandwich + tools + provider, one turn at a time. */
export class Agent {
  private currentModel: string;
  private active: ActiveProfile;
  /** The host's deps with the active profile applied: what turns and compaction use. */
  private deps: AgentDeps;
  private running = false;
  /** Notices the host announced and facts it noted, committed with the next prompt. */
  private announcements: NoticePayload[] = [];
  private readonly notedFacts = new Map<SessionFactKey, string | null>();
  /** Calls the user denied in the running turn (tool and input): a repeat is not asked again. */
  private readonly deniedByUser = new Set<string>();
  /** Text sent into the running turn, not yet committed: it goes in before the next model call. */
  private steering: string | null = null;
  /** Context windows the provider's server reported, per model, for this session (null: it did not say). */
  private readonly windows = new Map<string, DiscoveredWindow | null>();
  /** Servers being asked for a model's window now, and under which signal: one question at a time per model. */
  /** Told when a window is learned from the server (a screen shows it). */
  private readonly windowListeners = new Set<() => void>();
  private readonly asking = new Map<
    string,
    { readonly found: Promise<DiscoveredWindow | null>; readonly signal: AbortSignal }
  >();

  constructor(
    private readonly base: AgentDeps,
    model: string,
    profile?: ActiveProfile,
  ) {
    this.currentModel = model;
    this.active = profile ?? { name: null, systemPrompt: base.systemPrompt };
    this.deps = applyProfile(base, this.active);
  }

  /** The model of the next call. Setting it records it in the session (`fact.session`), so resume keeps it. */
  get model(): string {
    return this.currentModel;
  }

  set model(name: string) {
    this.currentModel = name;
    this.notedFacts.delete('model');
    recordSessionFact(this.base.store, 'model', name);
  }

  get profile(): ActiveProfile {
    return this.active;
  }

  /** What the next call sends besides the conversation: system prompt, tools, settings, limits. */
  get effective(): Pick<
    AgentDeps,
    'systemPrompt' | 'tools' | 'generation' | 'limits' | 'compaction' | 'contextWindowTokens'
  > {
    return this.deps;
  }

  /**
   * Runs with `profile` from the next model call on (and `model`, when the profile names one),
   * recorded in the session so that resume keeps it. Not while a turn runs.
   */
  switchProfile(profile: ActiveProfile, model?: string): void {
    if (this.running) throw new Error('a turn is running: switch agents once it ends');
    this.active = profile;
    this.deps = applyProfile(this.base, profile);
    this.notedFacts.delete('agent');
    recordSessionFact(this.base.store, 'agent', profile.name);
    if (model !== undefined) this.model = model;
  }

  /**
   * A notice for the transcript (which instruction files were loaded, say), committed with the
   * next prompt, so that opening a session writes nothing by itself; `fact` is recorded with it.
   */
  announce(notice: NoticePayload): void {
    this.announcements.push(notice);
  }

  /** A fact for the session (`fact.session`), recorded with the next prompt unless it holds it already. */
  noteFact(key: SessionFactKey, value: string | null): void {
    this.notedFacts.set(key, value);
  }

  /** The window as far as it is known now, without asking: undefined until the server was asked for this model. */
  get knownWindow(): DiscoveredWindow | null | undefined {
    const { compaction, contextWindowTokens } = this.deps;
    const fixed = compaction?.contextWindowTokens ?? contextWindowTokens;
    if (fixed !== undefined) return { tokens: fixed, source: 'the config' };
    if (!compaction) return null;
    return this.windows.get(this.model);
  }

  /**
   * Calls `listener` whenever the server has been asked for a model's window (the usage pane
   * shows it): that can be after a turn, which does not wait for it while nothing could be
   * compacted. Returns the unsubscribe.
   */
  onWindowLearned(listener: () => void): () => void {
    this.windowListeners.add(listener);
    return () => this.windowListeners.delete(listener);
  }

  /** The model's context window and where it came from: the config, else the server (null: unknown). */
  async contextWindowOf(signal: AbortSignal): Promise<DiscoveredWindow | null> {
    const { compaction, contextWindowTokens } = this.deps;
    const fixed = compaction?.contextWindowTokens ?? contextWindowTokens;
    if (fixed !== undefined) return { tokens: fixed, source: 'the config' };
    if (!compaction) return null;
    const known = this.windows.get(this.model);
    if (known !== undefined) return known;
    return this.askWindow(this.model, signal);
  }

  /**
   * The user is writing a prompt: the provider loads its client, and the server is asked for the
   * model's window now, as the first model call would (before it, or after it while nothing could
   * be compacted): the call then finds both ready. Sends no prompt; hosts call it only when a
   * provider is set up and prompts can be sent.
   */
  prepare(): void {
    if (this.running) return;
    this.deps.provider.prepare?.();
    if (this.windowUnasked) void this.askWindow(this.model, new AbortController().signal);
  }

  /** Whether the window would be asked of the server (it is neither configured nor learned yet). */
  private get windowUnasked(): boolean {
    const { compaction, contextWindowTokens } = this.deps;
    if (compaction?.contextWindowTokens !== undefined || contextWindowTokens !== undefined || !compaction) return false;
    return !this.windows.has(this.model);
  }

  /** Asks the server for the model's window, or joins the question already under way (unless it was stopped). */
  private async askWindow(model: string, signal: AbortSignal): Promise<DiscoveredWindow | null> {
    let asked = this.asking.get(model);
    if (asked === undefined) {
      const found = discoverContextWindow(this.deps.provider, model, signal).then((window) => {
        if (!signal.aborted) {
          this.windows.set(model, window);
          for (const listener of this.windowListeners) listener();
        }
        if (this.asking.get(model)?.found === found) this.asking.delete(model);
        return window;
      });
      asked = { found, signal };
      this.asking.set(model, asked);
    }
    const window = await untilAborted(asked.found, signal);
    // A question stopped with an earlier turn says nothing: this caller asks again.
    if (asked.signal.aborted && !signal.aborted && asked.signal !== signal) return this.askWindow(model, signal);
    return window;
  }

  /**
   * What the next model call sends from the end of `path` (default: the checked-out entry's),
   * estimated as compaction estimates it (characters / 4): the system prompt, the tool
   * definitions and the conversation. O(path): hosts call it when the path changes, not per frame.
   */
  requestTokensEstimate(path?: readonly AnyEntry[]): number {
    const { store, systemPrompt, tools, limits } = this.deps;
    const messages = requestMessages(systemPrompt, path ?? store.tree.pathTo(currentHead(store).entryId), limits);
    return estimateTokens(messages, tools.definitions());
  }

  /** What a call of the current model that used `usage` costs, priced as its usage row will be. */
  priceUsage(usage: TokenUsage): { readonly costUsdMicros: number; readonly priced: boolean } {
    return this.deps.price({ model: this.model, attempt: 0, outcome: 'ok', usage, latencyMs: 0 });
  }

  get isRunning(): boolean {
    return this.running;
  }

  /**
   * Steers the running turn: the text is committed as a user entry and sent with the turn's
   * next model call (after the tool calls in flight are settled; when the model has answered
   * without a tool call, the turn goes on to answer it). Sending again before that call replaces
   * the text. False when no turn runs (send it as a prompt instead).
   */
  steer(text: string): boolean {
    if (!this.running || text.trim() === '') return false;
    this.steering = text;
    return true;
  }

  /** Takes back steering text the turn ended without sending (it stopped, failed or hit a limit). */
  takeSteering(): string | null {
    const text = this.steering;
    this.steering = null;
    return text;
  }

  /** Settles every intent a crash left behind. Hosts call it on open, before anything else. */
  async resume(signal: AbortSignal, emit: EventSink): Promise<number> {
    // A pending MCP call resumes by its tool's replay class, so its server's tools must be there.
    if (this.base.store.registers.entries(NS.pending).length > 0) await this.base.externalTools?.ready(signal);
    // An intent from under another profile is settled with every tool the host has.
    return resumePending(this.base, new Sandwich(this.base, emit), signal, emit);
  }

  /** Whether checkpoints are on and one holds the files as they were at the entry. */
  hasCheckpointFor(entryId: string): boolean {
    const { checkpoints, store } = this.deps;
    return checkpoints?.enabled === true && restoreTarget(store, entryId) !== null;
  }

  /** What restoring the workspace files to an entry would change (nothing is changed). */
  async previewRestore(entryId: string): Promise<RestorePreview> {
    return previewRestore(this.deps, entryId);
  }

  /**
   * Restores the workspace files to how they were at an entry: an effect of its own, with a
   * checkpoint first, an intent and a settlement. Refused while a turn runs.
   */
  async restoreFiles(entryId: string, emit: EventSink): Promise<RestoreOutcome> {
    if (this.running) return { ok: false, reason: 'a turn is running; restore files when it ends' };
    this.running = true;
    try {
      return await restoreFiles(this.deps, entryId, emit);
    } finally {
      this.running = false;
    }
  }

  /** Runs the sessionStart hooks; hosts call it when they open a session. Null when none are configured. */
  async sessionStart(signal: AbortSignal, emit: EventSink): Promise<HookOutcome | null> {
    if (this.deps.store.readOnly) return null;
    const outcome = await runHooks(this.deps, this.model, 'sessionStart', {}, { failClosed: false, signal });
    commitNotices(this.deps, noticesOf(outcome), emit);
    return outcome;
  }

  /** `/compact`: summarizes the conversation under the head now (a preCompact hook may prevent it). */
  async compact(signal: AbortSignal, emit: EventSink): Promise<CompactionResult> {
    if (this.running)
      return { kind: 'skipped', reason: 'a turn is running; compact when it ends', estimatedTokensBefore: 0 };
    this.running = true;
    try {
      return await this.compactNow('manual', signal, emit);
    } finally {
      this.running = false;
    }
  }

  private async compactNow(
    trigger: CompactionTrigger,
    signal: AbortSignal,
    emit: EventSink,
  ): Promise<CompactionResult> {
    const windowTokens = await this.contextWindow(signal);
    const recordAttempt = (report: AttemptReport, entryId: string | null): void =>
      this.recordAttempt(report, entryId, emit);
    return compactConversation(
      { deps: this.deps, model: this.model, windowTokens, recordAttempt },
      trigger,
      signal,
      emit,
    );
  }

  /** The window from the compaction settings, the host, or (with compaction settings) the provider's model list. */
  private async contextWindow(signal: AbortSignal): Promise<number | null> {
    return (await this.contextWindowOf(signal))?.tokens ?? null;
  }

  async runTurn(prompt: string, signal: AbortSignal, emit: EventSink): Promise<TurnResult> {
    return this.exclusive(signal, emit, () => this.loop({ prompt }, signal, emit));
  }

  /**
   * Asks the model again from an entry already in the tree, as a new sibling branch: the entry
   * is checked out and the turn runs from it without a new prompt, so what was answered there
   * before stays in the tree beside the new answer. `fromEntryId` is the entry the answer
   * followed (a prompt, or a tool result), not the answer itself.
   */
  async retry(fromEntryId: string, signal: AbortSignal, emit: EventSink): Promise<TurnResult> {
    const from = this.deps.store.entry(fromEntryId);
    if (!from) throw new Error(`assert: no entry ${fromEntryId} to retry from`);
    return this.exclusive(signal, emit, () => {
      checkout(this.deps.store, fromEntryId);
      return this.loop({ from: fromEntryId }, signal, emit);
    });
  }

  private async exclusive(signal: AbortSignal, emit: EventSink, work: () => Promise<TurnResult>): Promise<TurnResult> {
    if (this.running) throw new Error('assert: one turn at a time');
    this.running = true;
    this.steering = null;
    try {
      // MCP servers offer their tools before the model is asked (each start has its own timeout).
      await this.deps.externalTools?.ready(signal);
      await this.resume(signal, emit);
      return await work();
    } finally {
      this.running = false;
    }
  }

  private async loop(
    start: { prompt: string } | { from: string },
    signal: AbortSignal,
    emit: EventSink,
  ): Promise<TurnResult> {
    const { store, limits } = this.deps;
    const sandwich = new Sandwich(this.deps, emit);
    const opened = await this.openTurn(sandwich, start, signal, emit);
    let state = opened.state;
    if (opened.blocked !== null) {
      return this.finish(
        sandwich,
        state,
        'blocked',
        `a userPrompt hook blocked the prompt (it stays in the transcript, and is not sent to the model): ${opened.blocked}`,
        emit,
      );
    }
    const guard = new LoopGuard(limits);
    const plans = new PlanWatch(store);
    this.deniedByUser.clear();
    let autoCompact = true;
    for (let step = 1; ; step++) {
      if (step > limits.maxSteps) {
        return this.finish(
          sandwich,
          state,
          'limit',
          `stopped after ${limits.maxSteps} model calls (max steps); send another prompt to continue`,
          emit,
        );
      }
      // While nothing could be compacted at any window (a short conversation), the model call does
      // not wait for the server to be asked for the window: that is asked once the call is over.
      const askWindowAfter = autoCompact && this.windowUnasked && !thresholdCompactionPossible(this.deps);
      if (autoCompact && !askWindowAfter) {
        const compacted = await this.compactNow('threshold', signal, emit);
        // A hook that blocks it, or a summary call that fails, is not asked again this turn.
        if (compacted.kind === 'blocked' || compacted.kind === 'failed') autoCompact = false;
      }
      let reply = await this.callModel(signal, emit);
      if (askWindowAfter) void this.contextWindowOf(signal);
      if (!reply.ok && reply.error.kind === 'context_overflow')
        reply = await this.retryAfterOverflow(reply, signal, emit);
      let turnErrorHook: HookOutcome | null | undefined;
      if (!reply.ok && reply.error.kind !== 'aborted') {
        turnErrorHook = await runHooks(
          this.deps,
          this.model,
          'turnError',
          { error: reply.error.message, error_kind: reply.error.kind },
          { failClosed: false, signal },
        );
        const again = retryRequested(turnErrorHook);
        if (again && !signal.aborted) {
          // Once per failure: a second failure is settled, whatever the hook says then.
          this.noteRetry(again.model, reply.error.message, emit);
          emit({ type: 'discard' });
          reply = await this.callModel(signal, emit);
          turnErrorHook = undefined;
        }
      }
      if (!reply.ok) return await this.failModel(sandwich, state, reply, signal, emit, turnErrorHook);
      const { result, ledger } = reply;
      const batch = new AppendBatch(store);
      batch.entry('assistant', {
        text: result.text,
        ...(result.reasoning ? { reasoning: result.reasoning } : {}),
        ...(result.thinking && result.thinking.length > 0 ? { thinking: result.thinking } : {}),
        ...(result.refusal ? { refusal: result.refusal } : {}),
        toolCalls: result.toolCalls,
        model: result.model,
        finishReason: result.finishReason,
      });
      const answered = this.commitAnswer(
        sandwich,
        state,
        result.toolCalls.length === 0 ? 'Final' : 'ToolCall',
        batch.build(),
        ledger,
        emit,
      );
      if ('failed' in answered) return answered.failed;
      state = answered.state;
      if (result.toolCalls.length === 0) {
        // A refusal is the answer when it is all the model said.
        const answer = result.text === '' && result.refusal ? result.refusal : result.text;
        const ended = {
          type: 'turn-ended',
          outcome: 'done',
          text: answer,
          ...(answer === result.text ? {} : { refused: true as const }),
        } as const;
        plans.check(emit);
        if (this.steering === null) {
          emit(ended);
          return { outcome: 'done', text: answer };
        }
        // Steering arrived while the model answered: the answer stays, and the turn goes on to the steering.
        const steering = await this.steeringDraft(signal);
        const next = new AppendBatch(store);
        const steeredId = steering ? addSteering(next, steering) : null;
        state = sandwich.move(state, 'Planning', next.build());
        announceSteering(steering, steeredId, emit);
        if (steering?.blocked === null) continue;
        state = sandwich.move(state, 'Final');
        emit(ended);
        return { outcome: 'done', text: answer };
      }
      const round = await this.runRound(sandwich, state, result.toolCalls, signal, emit);
      state = round.state;
      if (signal.aborted) return this.finish(sandwich, state, 'aborted', 'interrupted by the user', emit);
      const verdict = guard.afterRound(round.calls);
      if (verdict.action === 'abort') return this.finish(sandwich, state, 'limit', verdict.text, emit);
      const steering = await this.steeringDraft(signal);
      const next = new AppendBatch(store);
      if (verdict.action === 'nudge') {
        next.entry('notice', { level: 'warn', source: 'loop', text: verdict.text, toModel: true });
        emit({ type: 'notice', level: 'warn', text: verdict.text });
      }
      const replan = replanNudge(plans.check(emit), limits, this.deps.tools.get(UPDATE_PLAN_TOOL) !== undefined);
      if (replan !== null) {
        next.entry('notice', { level: 'info', source: 'loop', text: replan, toModel: true });
        emit({ type: 'notice', level: 'info', text: replan });
      }
      const steeredId = steering ? addSteering(next, steering) : null;
      state = sandwich.move(state, 'Planning', next.build());
      announceSteering(steering, steeredId, emit);
    }
  }

  /**
   * Commits the model's answer. One over the commit limit is not stored: the turn is settled as
   * failed, with a notice that says so, so that the machine never stays in Planning while tole runs on.
   */
  private commitAnswer(
    sandwich: Sandwich,
    state: MachineState,
    to: 'Final' | 'ToolCall',
    records: readonly DraftRecord[],
    ledger: readonly DraftRecord[],
    emit: EventSink,
  ): { state: MachineState } | { failed: TurnResult } {
    try {
      return { state: sandwich.move(state, to, [...ledger, ...records]) };
    } catch (error) {
      if (!isStorageError(error, 'too-large')) {
        // Nothing of that line was written, but the attempt was made (and paid for): its row is
        // still kept, on a line of its own, before the failure goes on up.
        if (isStorageError(error, 'not-committed') || error instanceof CasConflictError) this.keepLedger(ledger, emit);
        throw error;
      }
      const message = `the model's answer is too large to store (${error.message.replace(/^not committed: /, '')}): it was not kept, and this turn failed`;
      const hint = 'ask for a shorter answer, or for the work in parts';
      const text = `${message} (${hint})`;
      const batch = new AppendBatch(this.deps.store);
      batch.entry('notice', { level: 'error', source: 'provider', text });
      sandwich.move(state, 'Final', [...ledger, ...batch.build()]);
      emit({ type: 'error', kind: 'too_large', message, hint });
      emit({ type: 'turn-ended', outcome: 'error', text });
      return { failed: { outcome: 'error', text } };
    }
  }

  /**
   * Commits the ledger rows an answer's line would have carried, when that line was not written.
   * Best effort: a failure here is dropped, as the answer's own failure is what the caller reports.
   */
  private keepLedger(ledger: readonly DraftRecord[], emit: EventSink): void {
    if (ledger.length === 0) return;
    try {
      this.commitLedger(ledger, emit);
    } catch {
      // The store refused this too (poisoned, out of space): the reopen or the next commit says so.
    }
  }

  /** What was announced or noted since the last turn (model changes, session facts) goes in with its first commit. */
  private addNoted(batch: AppendBatch): void {
    const { store } = this.deps;
    for (const notice of this.announcements) batch.entry('notice', notice);
    for (const [key, value] of this.notedFacts) {
      if (sessionFact(store, key) === (value ?? undefined)) continue;
      if (value === null) batch.remove(NS.session, key);
      else batch.register(NS.session, key, value);
    }
    this.announcements = [];
    this.notedFacts.clear();
  }

  /** The turn's first commit: the prompt as a user entry (through the userPrompt hooks), or for a retry nothing new. */
  private async openTurn(
    sandwich: Sandwich,
    start: { prompt: string } | { from: string },
    signal: AbortSignal,
    emit: EventSink,
  ): Promise<{ state: MachineState; blocked: string | null }> {
    const { store } = this.deps;
    if ('from' in start) {
      const batch = new AppendBatch(store);
      this.addNoted(batch);
      const state = sandwich.move(readyState(store, sandwich), 'Planning', batch.build());
      emit({ type: 'turn-started', promptEntryId: start.from, lane: batch.laneName });
      return { state, blocked: null };
    }
    const { prompt } = start;
    const promptHook = await runHooks(this.deps, this.model, 'userPrompt', { prompt }, { failClosed: false, signal });
    const blocked = promptHook?.verdict === 'block' ? (promptHook.blockReason ?? 'blocked by a hook') : null;
    const batch = new AppendBatch(store);
    this.addNoted(batch);
    const promptEntryId = batch.entry('user', { text: prompt, ...(blocked === null ? {} : { blocked }) });
    addNotices(batch, noticesOf(promptHook));
    const state = sandwich.move(readyState(store, sandwich), 'Planning', batch.build());
    emit({ type: 'turn-started', promptEntryId, lane: batch.laneName });
    emitNotices(noticesOf(promptHook), emit);
    return { state, blocked };
  }

  /** Takes the pending steering text and runs it through the userPrompt hooks, like a prompt; null when there is none. */
  private async steeringDraft(signal: AbortSignal): Promise<Steering | null> {
    const text = this.takeSteering();
    if (text === null) return null;
    const hook = await runHooks(
      this.deps,
      this.model,
      'userPrompt',
      { prompt: text, steered: true },
      { failClosed: false, signal },
    );
    const blocked = hook?.verdict === 'block' ? (hook.blockReason ?? 'blocked by a hook') : null;
    return { text, blocked, notices: noticesOf(hook) };
  }

  private async runRound(
    sandwich: Sandwich,
    initial: MachineState,
    calls: readonly ToolCallRequest[],
    signal: AbortSignal,
    emit: EventSink,
  ): Promise<{ state: MachineState; calls: RoundCall[] }> {
    let state = initial;
    const done: RoundCall[] = [];
    const fanOut = (this.deps.readConcurrency ?? DEFAULT_READ_CONCURRENCY) > 1;
    for (let i = 0; i < calls.length; i++) {
      const call = calls[i]!;
      if (i > 0) state = sandwich.move(state, 'ToolCall');
      // Consecutive ReadOnly calls the policy allows run side by side; the rest one at a time, in order.
      const run = fanOut && !signal.aborted ? readRun(this.deps, calls, i) : [];
      if (run.length > 1) {
        const ran = await runFanOut({ deps: this.deps, model: this.model, sandwich, emit }, state, run, signal);
        state = ran.state;
        done.push(...ran.calls);
        i += run.length - 1;
        continue;
      }
      const outcome = signal.aborted ? null : await this.runCall(sandwich, state, call, signal, emit);
      if (outcome === null) {
        state = sandwich.settle(
          state,
          {
            callId: call.id,
            tool: call.name,
            outcome: 'interrupted',
            content: 'not run: the turn was interrupted by the user',
            tier: 'hot',
          },
          false,
        );
        done.push({ name: call.name, arguments: call.arguments, ok: false });
        continue;
      }
      state = outcome.state;
      done.push({ name: call.name, arguments: call.arguments, ok: outcome.ok });
    }
    return { state, calls: done };
  }

  /** One call through the effect sandwich: intent, (approval), effect, settlement. */
  private async runCall(
    sandwich: Sandwich,
    state: MachineState,
    call: ToolCallRequest,
    signal: AbortSignal,
    emit: EventSink,
  ): Promise<{ state: MachineState; ok: boolean }> {
    const { tools, policy, fault } = this.deps;
    const parsed = tools.parseCall(call.name, call.arguments);
    if (!parsed.ok) {
      const next = sandwich.settle(
        state,
        { callId: call.id, tool: call.name, outcome: 'error', content: parsed.message, tier: 'hot' },
        false,
      );
      return { state: next, ok: false };
    }
    const { tool, input } = parsed;
    const subject = await resolvedSubjectOf(tool, input, this.deps.workspaceRoot);
    const described = subject.ok ? requestFor(tool, input, call.id, subject.subject) : subject;
    if (!described.ok) {
      const next = sandwich.settle(
        state,
        { callId: call.id, tool: tool.name, outcome: 'error', content: described.message, tier: 'hot' },
        false,
      );
      return { state: next, ok: false };
    }
    const { request } = described;
    emit({ type: 'tool-call', callId: call.id, tool: tool.name, subject: request.subject, risk: request.risk });
    const pre = policy.preDecide(request);
    const signature = `${tool.name}\n${JSON.stringify(input)}`;
    const known: Decision | null = 'ask' in pre ? (this.deniedByUser.has(signature) ? ALREADY_DENIED : null) : pre;
    if (known && !known.approved) {
      const next = sandwich.settle(
        state,
        { callId: call.id, tool: tool.name, outcome: 'denied', content: `denied: ${known.reason}`, tier: 'hot' },
        false,
      );
      return { state: next, ok: false };
    }
    const prepared = await prepareCall(tool, input, {
      workspaceRoot: this.deps.workspaceRoot,
      signal,
      callId: call.id,
    });
    if (!prepared.ok) {
      const next = sandwich.settle(
        state,
        { callId: call.id, tool: tool.name, outcome: 'error', content: prepared.message, tier: 'hot' },
        false,
      );
      return { state: next, ok: false };
    }
    // preToolUse runs once the policy has decided and before the intent: a block settles the call
    // without an intent, and a call the user must approve is blocked before anyone is asked.
    const toolFields = { tool: tool.name, call_id: call.id, input, risk: request.risk, subject: request.subject };
    const preHook = await runHooks(this.deps, this.model, 'preToolUse', toolFields, {
      failClosed: failsClosed(request.risk),
      signal,
    });
    const preNotices = noticesOf(preHook);
    if (signal.aborted) {
      const next = sandwich.settle(
        state,
        {
          callId: call.id,
          tool: tool.name,
          outcome: 'interrupted',
          content: 'not run: the turn was interrupted by the user',
          tier: 'hot',
        },
        false,
        preNotices,
      );
      emitNotices(preNotices, emit);
      return { state: next, ok: false };
    }
    if (preHook?.verdict === 'block') {
      const content = `blocked by a preToolUse hook: ${preHook.blockReason ?? ''}. Not run; do not retry the same call.`;
      const next = sandwich.settle(
        state,
        { callId: call.id, tool: tool.name, outcome: 'blocked', content, tier: 'hot' },
        false,
        preNotices,
      );
      emitNotices(preNotices, emit);
      return { state: next, ok: false };
    }
    // The checkpoint comes after the approval and before the effect: with the intent when the
    // approval is already known, else with the user's approval.
    const early = known ? await sandwich.checkpoint(request.risk) : NO_CHECKPOINT;
    let current = sandwich.commitIntent(state, request, tool, known, prepared.value, preNotices, early);
    emitNotices([...preNotices, ...early.notices], emit);
    fault?.('after-intent');
    let approval = known;
    let runInput: unknown = input;
    if (!approval) {
      const preview = await previewOf(tool, input, this.deps.workspaceRoot);
      const asked = preview ? { ...request, preview } : request;
      const checked = await askFollowingEdits(tool, input, asked, (shown) => this.ask(shown, signal, emit));
      const decision = await this.hookOnEdit(checked.decision, toolFields, signal);
      if (!decision.approved && decision.by === 'user') this.deniedByUser.add(signature);
      const late = decision.approved ? await sandwich.checkpoint(riskOfRun(request, decision)) : NO_CHECKPOINT;
      current = sandwich.commitApproval(current, request, tool, decision, late);
      emitNotices(late.notices, emit);
      if (!decision.approved) return { state: current, ok: false };
      approval = decision;
      runInput = checked.input;
    }
    const result = await sandwich.execute(tool, runInput, call.id, signal, approval, prepared.value);
    fault?.('before-settlement');
    const settled = sandwich.settle(current, result, true);
    const postHook = await runHooks(
      this.deps,
      this.model,
      'postToolUse',
      { ...toolFields, outcome: result.outcome, output: result.content },
      { failClosed: false, signal },
    );
    commitNotices(this.deps, noticesOf(postHook), emit);
    return { state: settled, ok: result.outcome === 'ok' };
  }

  /** An edited call goes through the preToolUse hooks again, as what now runs: a block denies it. */
  private async hookOnEdit(
    decision: Decision,
    fields: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<Decision> {
    if (!decision.approved || !decision.edited) return decision;
    const { edited } = decision;
    const hook = await runHooks(
      this.deps,
      this.model,
      'preToolUse',
      { ...fields, input: edited.input, subject: edited.subject, risk: edited.risk },
      { failClosed: failsClosed(edited.risk ?? 'Destructive'), signal },
    );
    if (hook?.verdict !== 'block') return decision;
    return {
      approved: false,
      by: 'hook',
      reason: `the edited command was blocked by a preToolUse hook: ${hook.blockReason ?? ''}`,
    };
  }

  private async ask(request: ApprovalRequest, signal: AbortSignal, emit: EventSink): Promise<Decision> {
    const { approver } = this.deps;
    if (!approver) throw new Error('assert: the policy asked, but no interactive approver is wired');
    return askApprover(this.deps, approver, request, signal, emit);
  }

  private async callModel(signal: AbortSignal, emit: EventSink): Promise<ModelReply> {
    const { store, provider, tools, systemPrompt, limits } = this.deps;
    const head = currentHead(store);
    const messages = requestMessages(systemPrompt, store.tree.pathTo(head.entryId), limits);
    let partial = '';
    let ledgerFailure: unknown = null;
    // The usage row of the attempt that answered goes into the answer's own commit (one write and
    // one fdatasync instead of two, on the way from the last token to the screen); see `ledger`.
    let answered: AttemptReport | null = null;
    const onEvent = (event: CompletionEvent): void => {
      if (event.type === 'text') partial += event.delta;
      if (event.type === 'discard') partial = '';
      if (event.type === 'tool_call') {
        emit({ type: 'stream-activity' });
        return;
      }
      if (event.type !== 'attempt') {
        emit(event);
        return;
      }
      emit({ type: 'attempt', report: event.report });
      if (event.report.outcome === 'ok' && answered === null) {
        answered = event.report;
        return;
      }
      try {
        this.recordAttempt(event.report, head.entryId, emit);
      } catch (error) {
        ledgerFailure ??= error;
      }
    };
    try {
      const { generation } = this.deps;
      const window = this.knownWindow?.tokens;
      const request = {
        model: this.model,
        messages,
        tools: tools.definitions(),
        signal,
        ...(generation ? { generation } : {}),
        ...(window === undefined ? {} : { contextWindowTokens: window }),
      };
      const result = await provider.complete(request, onEvent);
      if (ledgerFailure) throw ledgerFailure;
      const ledger: DraftRecord[] = answered === null ? [] : [this.usageDraft(answered, head.entryId)];
      return { ok: true, result, ledger };
    } catch (error) {
      // An answered attempt whose call failed after all: its row is not left for an answer that never comes.
      if (answered !== null && ledgerFailure === null) {
        try {
          this.recordAttempt(answered, head.entryId, emit);
        } catch (failure) {
          ledgerFailure = failure;
        }
      }
      // A usage row that could not be committed is not hidden behind the provider's own failure.
      if (ledgerFailure) throw ledgerFailure;
      if (error instanceof ProviderError) return { ok: false, error, partial };
      throw error;
    }
  }

  private recordAttempt(report: AttemptReport, entryId: string | null, emit: EventSink): void {
    this.commitLedger([this.usageDraft(report, entryId)], emit);
  }

  /** Commits usage rows on a line of their own, each announced once written. */
  private commitLedger(rows: readonly DraftRecord[], emit: EventSink): void {
    for (const row of this.deps.store.commit(rows)) if (row.kind === 'usage') emit({ type: 'usage', row });
  }

  /** The ledger's row for an attempt of a model call made from `entryId`. */
  private usageDraft(report: AttemptReport, entryId: string | null): DraftRecord {
    const { store, price } = this.deps;
    const priced = price(report);
    const usage: UsageRow = {
      model: report.model,
      attempt: report.attempt,
      outcome: report.outcome,
      inputTokens: report.usage?.inputTokens ?? 0,
      outputTokens: report.usage?.outputTokens ?? 0,
      cachedInputTokens: report.usage?.cachedInputTokens ?? 0,
      cacheWriteTokens: report.usage?.cacheWriteTokens ?? 0,
      costUsdMicros: priced.costUsdMicros,
      priced: priced.priced,
      latencyMs: report.latencyMs,
      lane: laneForAppend(store).lane,
      ...(report.error ? { error: report.error } : {}),
      ...(report.retryInMs !== undefined ? { retryInMs: report.retryInMs } : {}),
    };
    return { kind: 'usage', id: store.newUsageId(), entryId, usage };
  }

  /** A context overflow compacts the conversation and retries the call once. */
  private async retryAfterOverflow(first: ModelFailure, signal: AbortSignal, emit: EventSink): Promise<ModelReply> {
    const compacted = await this.compactNow('overflow', signal, emit);
    if ('reason' in compacted) {
      return {
        ...first,
        error: overflowError(`${first.error.message}; compaction could not help (${compacted.reason})`, first.error),
      };
    }
    const second = await this.callModel(signal, emit);
    if (second.ok || second.error.kind !== 'context_overflow') return second;
    return {
      ...second,
      error: overflowError(
        `the conversation is still too long for the model's context window after compaction: ${second.error.message}`,
        second.error,
      ),
    };
  }

  /** A turnError hook asked to try again: said in the transcript (and the model switched) before the call. */
  private noteRetry(model: string | null, why: string, emit: EventSink): void {
    if (model !== null) this.model = model;
    const text = `a turnError hook asked to try again${model === null ? '' : ` with ${model}`} after: ${why}`;
    const batch = new AppendBatch(this.deps.store);
    batch.entry('notice', { level: 'info', source: 'hook', text });
    this.deps.store.commit(batch.build());
    emit({ type: 'notice', level: 'info', text });
  }

  /** `ran`: the turnError hook's outcome when it already ran for this failure (undefined: run it here). */
  private async failModel(
    sandwich: Sandwich,
    state: MachineState,
    reply: ModelFailure,
    signal: AbortSignal,
    emit: EventSink,
    ran?: HookOutcome | null,
  ): Promise<TurnResult> {
    const { error, partial } = reply;
    const hook =
      error.kind === 'aborted'
        ? null
        : ran !== undefined
          ? ran
          : await runHooks(
              this.deps,
              this.model,
              'turnError',
              { error: error.message, error_kind: error.kind },
              { failClosed: false, signal },
            );
    const batch = new AppendBatch(this.deps.store);
    if (partial)
      batch.entry('assistant', {
        text: partial,
        toolCalls: [],
        model: this.model,
        finishReason: error.kind === 'aborted' ? 'interrupted' : 'error',
      });
    if (error.kind === 'aborted') {
      sandwich.move(state, 'Final', batch.build());
      emit({ type: 'turn-ended', outcome: 'aborted', text: partial });
      return { outcome: 'aborted', text: partial };
    }
    const text = `${error.message}${error.hint ? ` (${error.hint})` : ''}`;
    batch.entry('notice', { level: 'error', source: 'provider', text });
    addNotices(batch, noticesOf(hook));
    sandwich.move(state, 'Final', batch.build());
    emitNotices(noticesOf(hook), emit);
    emit({ type: 'error', kind: error.kind, message: error.message, hint: error.hint });
    emit({ type: 'turn-ended', outcome: 'error', text });
    return { outcome: 'error', text };
  }

  private finish(
    sandwich: Sandwich,
    state: MachineState,
    outcome: TurnOutcome,
    text: string,
    emit: EventSink,
  ): TurnResult {
    const batch = new AppendBatch(this.deps.store);
    batch.entry('notice', { level: outcome === 'aborted' ? 'info' : 'warn', source: 'loop', text });
    sandwich.move(state, 'Final', batch.build());
    emit({ type: 'notice', level: 'warn', text });
    emit({ type: 'turn-ended', outcome, text });
    return { outcome, text };
  }
}

function applyProfile(base: AgentDeps, profile: ActiveProfile): AgentDeps {
  return {
    ...base,
    systemPrompt: profile.systemPrompt,
    tools: profile.tools ? base.tools.only(profile.tools) : base.tools,
    limits: profile.maxSteps === undefined ? base.limits : { ...base.limits, maxSteps: profile.maxSteps },
    ...(profile.compactionModel === undefined
      ? {}
      : { compaction: { ...base.compaction, model: profile.compactionModel } }),
    ...(profile.generation === undefined ? {} : { generation: profile.generation }),
  };
}

/** A repeat of a call the user denied earlier in the turn: denied without asking again (no approval spam). */
const ALREADY_DENIED: Decision = {
  approved: false,
  by: 'user',
  reason:
    'the user already denied this exact call in this turn and is not asked again. Do not repeat it: explain what you need, or try another way',
};

interface Steering {
  readonly text: string;
  readonly blocked: string | null;
  readonly notices: readonly NoticePayload[];
}

/** The steering message as a user entry (and its hooks' notices) in the batch that starts the next call. */
function addSteering(batch: AppendBatch, steering: Steering): string {
  const { text, blocked } = steering;
  const entryId = batch.entry('user', { text, steered: true, ...(blocked === null ? {} : { blocked }) });
  addNotices(batch, steering.notices);
  return entryId;
}

function announceSteering(steering: Steering | null, entryId: string | null, emit: EventSink): void {
  if (!steering || entryId === null) return;
  emitNotices(steering.notices, emit);
  if (steering.blocked === null) emit({ type: 'steered', entryId, text: steering.text });
  else
    emit({
      type: 'notice',
      level: 'warn',
      text: `a userPrompt hook blocked the steering message (it stays in the transcript, and is not sent): ${steering.blocked}`,
    });
}

type ModelFailure = { readonly ok: false; readonly error: ProviderError; readonly partial: string };
/**
 * A model call's outcome. An answer carries the usage row of the attempt that gave it (`ledger`),
 * not yet committed: it goes into the answer's commit, which follows at once with no wait in between.
 */
type ModelReply =
  | { readonly ok: true; readonly result: CompletionResult; readonly ledger: readonly DraftRecord[] }
  | ModelFailure;

function overflowError(message: string, cause: ProviderError): ProviderError {
  return new ProviderError({
    kind: 'context_overflow',
    message,
    hint: "the conversation does not fit the model's context window: start a new session, branch from an earlier entry, or pick a model with a larger window",
    ...(cause.status === undefined ? {} : { status: cause.status }),
    cause,
  });
}

/** The state a new turn starts from: Idle or Final (a leftover mid-turn state is closed first). */
function readyState(store: AgentDeps['store'], sandwich: Sandwich): MachineState {
  const state = machineState(store);
  if (state.pc === 'Idle' || state.pc === 'Final') return state;
  return sandwich.move(state, 'Final');
}

/** Settles as `promise` does, or with null as soon as `signal` aborts (a question another caller started may run on). */
async function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | null> {
  const settled = await raceAbort(promise, signal);
  return settled === ABORTED ? null : settled;
}
