import type { HookOutcome } from '../hooks/hook-runner';
import type { MachineState } from '../machine/machine';
import type { TokenUsage } from '../provider/provider';
import type { DiscoveredWindow } from '../provider/context-window';
import { NS } from '../registers/namespaces';
import { UPDATE_PLAN_TOOL } from '../tools/builtin/update-plan';
import type { AnyEntry } from '../tree/entry-types';
import type { AgentDeps } from './agent-deps';
import { applyProfile, type ActiveProfile } from './agent-profile';
import {
  compactConversation,
  estimateTokens,
  thresholdCompactionPossible,
  type CompactionResult,
  type CompactionTrigger,
} from './compaction';
import { ContextWindows } from './context-windows';
import { AppendBatch, checkout, currentHead } from './cursor';
import type { EventSink } from './events';
import { LoopGuard, stepLimitText } from './limits';
import { callModel, recordAttempt, retryAfterOverflow, type ModelReply } from './model-call';
import { replanNudge } from './plan-nudges';
import { requestMessages } from './plan-reinjection';
import { PlanWatch } from './plan-watch';
import { previewRestore, restoreFiles, restoreTarget, type RestoreOutcome, type RestorePreview } from './restore-files';
import { resumePending } from './resume';
import { recordSessionFact, sessionFact, type SessionFactKey } from './session-facts';
import { attachmentsField, attachToPrompt } from './prompt-attachments';
import { addSteering, announceSteering, steeringDraft, type Steering } from './steering';
import { ToolCalls } from './tool-calls';
import { readyState, runUserShell } from './user-shell';
import { Sandwich } from './tool-step';
import { commitAnswer, failTurn, finishTurn, type TurnResult } from './turn-ending';
import { addNotices, commitNotices, emitNotices, noticesOf, runHooks, type NoticePayload } from './turn-hooks';
import { commitRetryNotice, retryRequested } from './turn-error-retry';
import type { TurnScope } from './turn-scope';

export type { TurnResult } from './turn-ending';

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
  /** Text sent into the running turn, not yet committed: it goes in before the next model call. */
  private steering: string | null = null;
  /** The models' context windows: configured, or learned from the server. */
  private readonly windows = new ContextWindows();

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
    return this.windows.known(this.deps, this.model);
  }

  /**
   * Calls `listener` whenever the server has been asked for a model's window (the usage pane
   * shows it): that can be after a turn, which does not wait for it while nothing could be
   * compacted. Returns the unsubscribe.
   */
  onWindowLearned(listener: () => void): () => void {
    return this.windows.onLearned(listener);
  }

  /** The model's context window and where it came from: the config, else the server (null: unknown). */
  async contextWindowOf(signal: AbortSignal): Promise<DiscoveredWindow | null> {
    return this.windows.of(this.deps, this.model, signal);
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
    if (this.windowUnasked) void this.windows.ask(this.deps, this.model, new AbortController().signal);
  }

  /** Whether the window would be asked of the server (it is neither configured nor learned yet). */
  private get windowUnasked(): boolean {
    return this.windows.unasked(this.deps, this.model);
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

  /** The session's budget in US dollars (`limits.maxSessionCostUsd`, sub-agents included); null when none is set. */
  get budgetUsd(): number | null {
    return this.deps.budget?.maxUsd ?? null;
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
  async restoreFiles(entryId: string, emit: EventSink, signal?: AbortSignal): Promise<RestoreOutcome> {
    if (this.running) return { ok: false, reason: 'a turn is running; restore files when it ends' };
    this.running = true;
    try {
      return await restoreFiles(this.deps, entryId, emit, signal);
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
    const windowTokens = (await this.contextWindowOf(signal))?.tokens ?? null;
    const deps = this.deps;
    return compactConversation(
      {
        deps,
        model: this.model,
        windowTokens,
        recordAttempt: (report, entryId) => recordAttempt(deps, report, entryId, emit),
      },
      trigger,
      signal,
      emit,
    );
  }

  /** `!command`: the user's shell command through the bash tool, between turns (user-shell.ts). */
  runShell(command: string, signal: AbortSignal, emit: EventSink): Promise<TurnResult> {
    return this.exclusive(signal, emit, () => runUserShell(this.deps, this.model, command, signal, emit));
  }

  async runTurn(prompt: string, signal: AbortSignal, emit: EventSink): Promise<TurnResult> {
    return this.exclusive(signal, emit, () => this.loop({ prompt }, signal, emit));
  }

  /**
   * Asks the model again from an entry already in the tree, as a new sibling branch: the entry
   * is checked out and the turn runs from it without a new prompt, so what was answered there
   * before stays in the tree beside the new answer. `fromEntryId` is the entry the answer
   * followed (a prompt, or a tool result), not the answer itself. `stepsTaken`: model calls
   * the turn made before it was cut short (a sub-agent going on after a crash), counted against
   * `maxSteps`.
   */
  async retry(fromEntryId: string, signal: AbortSignal, emit: EventSink, stepsTaken = 0): Promise<TurnResult> {
    const from = this.deps.store.entry(fromEntryId);
    if (!from) throw new Error(`assert: no entry ${fromEntryId} to retry from`);
    if (!Number.isInteger(stepsTaken) || stepsTaken < 0) throw new Error(`assert: ${stepsTaken} steps taken`);
    return this.exclusive(signal, emit, () => {
      checkout(this.deps.store, fromEntryId);
      return this.loop({ from: fromEntryId, stepsTaken }, signal, emit);
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

  /** The running turn's scope, with the model as it is now (a turnError hook may switch it mid-turn). */
  private scope(sandwich: Sandwich, emit: EventSink): TurnScope {
    return { deps: this.deps, model: this.model, sandwich, emit };
  }

  private async loop(
    start: { prompt: string } | { from: string; stepsTaken: number },
    signal: AbortSignal,
    emit: EventSink,
  ): Promise<TurnResult> {
    const { store, limits } = this.deps;
    const sandwich = new Sandwich(this.deps, emit);
    const opened = await this.openTurn(sandwich, start, signal, emit);
    let state = opened.state;
    if (opened.blocked !== null) {
      return finishTurn(
        this.scope(sandwich, emit),
        state,
        'blocked',
        `a userPrompt hook blocked the prompt (it stays in the transcript, and is not sent to the model): ${opened.blocked}`,
      );
    }
    const guard = new LoopGuard(limits);
    const plans = new PlanWatch(store);
    const toolCalls = new ToolCalls();
    let autoCompact = true;
    // A turn going on after a crash (a sub-agent's) counts the model calls it made before.
    const firstStep = 'from' in start ? start.stepsTaken + 1 : 1;
    for (let step = firstStep; ; step++) {
      const limit = stepLimitText(step, limits.maxSteps) ?? this.deps.budget?.stopReason() ?? null;
      if (limit !== null) return finishTurn(this.scope(sandwich, emit), state, 'limit', limit);
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
        reply = await retryAfterOverflow(
          reply,
          () => this.compactNow('overflow', signal, emit),
          () => this.callModel(signal, emit),
        );
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
      if (!reply.ok) return await failTurn(this.scope(sandwich, emit), state, reply, signal, turnErrorHook);
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
      const to = result.toolCalls.length === 0 ? 'Final' : 'ToolCall';
      const answered = commitAnswer(this.scope(sandwich, emit), state, to, batch.build(), ledger);
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
      const round = await toolCalls.runRound(this.scope(sandwich, emit), state, result.toolCalls, signal);
      state = round.state;
      if (signal.aborted) return finishTurn(this.scope(sandwich, emit), state, 'aborted', 'interrupted by the user');
      const verdict = guard.afterRound(round.calls);
      if (verdict.action === 'abort') return finishTurn(this.scope(sandwich, emit), state, 'limit', verdict.text);
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

  private async callModel(signal: AbortSignal, emit: EventSink): Promise<ModelReply> {
    return callModel(this.deps, this.model, this.knownWindow?.tokens, signal, emit);
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
    const attached = blocked === null ? await attachToPrompt(this.deps.workspaceRoot, prompt) : null;
    const notices = [...noticesOf(promptHook), ...(attached?.notices ?? [])];
    const batch = new AppendBatch(store);
    this.addNoted(batch);
    const promptEntryId = batch.entry('user', {
      text: prompt,
      ...(blocked === null ? {} : { blocked }),
      ...attachmentsField(attached?.attachments ?? []),
    });
    addNotices(batch, notices);
    const state = sandwich.move(readyState(store, sandwich), 'Planning', batch.build());
    emit({ type: 'turn-started', promptEntryId, lane: batch.laneName });
    emitNotices(notices, emit);
    return { state, blocked };
  }

  /** Takes the pending steering text and runs it through the userPrompt hooks, like a prompt; null when there is none. */
  private async steeringDraft(signal: AbortSignal): Promise<Steering | null> {
    const text = this.takeSteering();
    return text === null ? null : steeringDraft(this.deps, this.model, text, signal);
  }

  /** A turnError hook asked to try again: said in the transcript (and the model switched) before the call. */
  private noteRetry(model: string | null, why: string, emit: EventSink): void {
    if (model !== null) this.model = model;
    commitRetryNotice(this.deps.store, model, why, emit);
  }
}
