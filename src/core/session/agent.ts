import type { ApprovalRequest, Decision } from '../approval/approver';
import { machineState, type MachineState } from '../machine/machine';
import { ProviderError } from '../provider/errors';
import type { AttemptReport, CompletionEvent, CompletionResult, ToolCallRequest } from '../provider/provider';
import type { AnyTool } from '../tools/tool';
import type { AgentDeps, UsageRow } from './agent-deps';
import { buildMessages } from './context';
import { AppendBatch, currentHead, laneForAppend } from './cursor';
import type { EventSink, TurnOutcome } from './events';
import { LoopGuard, type RoundCall } from './limits';
import { resumePending } from './resume';
import { Sandwich } from './tool-step';

export interface TurnResult {
  readonly outcome: TurnOutcome;
  readonly text: string;
}

/** The turn loop: machine + effect sandwich + tools + provider, one turn at a time. */
export class Agent {
  model: string;
  private running = false;

  constructor(
    private readonly deps: AgentDeps,
    model: string,
  ) {
    this.model = model;
  }

  get isRunning(): boolean {
    return this.running;
  }

  /** Settles every intent a crash left behind. Hosts call it on open, before anything else. */
  async resume(signal: AbortSignal, emit: EventSink): Promise<number> {
    return resumePending(this.deps, new Sandwich(this.deps, emit), signal, emit);
  }

  async runTurn(prompt: string, signal: AbortSignal, emit: EventSink): Promise<TurnResult> {
    if (this.running) throw new Error('assert: one turn at a time');
    this.running = true;
    try {
      await this.resume(signal, emit);
      return await this.loop(prompt, signal, emit);
    } finally {
      this.running = false;
    }
  }

  private async loop(prompt: string, signal: AbortSignal, emit: EventSink): Promise<TurnResult> {
    const { store, limits } = this.deps;
    const sandwich = new Sandwich(this.deps, emit);
    const start = new AppendBatch(store);
    const promptEntryId = start.entry('user', { text: prompt });
    let state = sandwich.move(readyState(store, sandwich), 'Planning', start.build());
    emit({ type: 'turn-started', promptEntryId, lane: start.laneName });
    const guard = new LoopGuard(limits);
    for (let step = 1; ; step++) {
      if (step > limits.maxSteps) {
        return this.finish(sandwich, state, 'limit', `stopped after ${limits.maxSteps} model calls (max steps); send another prompt to continue`, emit);
      }
      const reply = await this.callModel(signal, emit);
      if (!reply.ok) return this.failModel(sandwich, state, reply, emit);
      const { result } = reply;
      const batch = new AppendBatch(store);
      batch.entry('assistant', {
        text: result.text,
        ...(result.reasoning ? { reasoning: result.reasoning } : {}),
        toolCalls: result.toolCalls,
        model: result.model,
        finishReason: result.finishReason,
      });
      if (result.toolCalls.length === 0) {
        state = sandwich.move(state, 'Final', batch.build());
        emit({ type: 'turn-ended', outcome: 'done', text: result.text });
        return { outcome: 'done', text: result.text };
      }
      state = sandwich.move(state, 'ToolCall', batch.build());
      const round = await this.runRound(sandwich, state, result.toolCalls, signal, emit);
      state = round.state;
      if (signal.aborted) return this.finish(sandwich, state, 'aborted', 'interrupted by the user', emit);
      const verdict = guard.afterRound(round.calls);
      if (verdict.action === 'abort') return this.finish(sandwich, state, 'limit', verdict.text, emit);
      const next = new AppendBatch(store);
      if (verdict.action === 'nudge') {
        next.entry('notice', { level: 'warn', source: 'loop', text: verdict.text, toModel: true });
        emit({ type: 'notice', level: 'warn', text: verdict.text });
      }
      state = sandwich.move(state, 'Planning', next.build());
    }
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
    for (const [i, call] of calls.entries()) {
      if (i > 0) state = sandwich.move(state, 'ToolCall');
      const outcome = signal.aborted ? null : await this.runCall(sandwich, state, call, signal, emit);
      if (outcome === null) {
        state = sandwich.settle(state, { callId: call.id, tool: call.name, outcome: 'interrupted', content: 'not run: the turn was interrupted by the user', tier: 'hot' }, false);
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
      const next = sandwich.settle(state, { callId: call.id, tool: call.name, outcome: 'error', content: parsed.message, tier: 'hot' }, false);
      return { state: next, ok: false };
    }
    const { tool, input } = parsed;
    const assessment = tool.assess(input);
    const request: ApprovalRequest = { callId: call.id, tool: tool.name, subject: tool.subject(input), input, risk: assessment.risk, reason: assessment.reason };
    emit({ type: 'tool-call', callId: call.id, tool: tool.name, subject: request.subject, risk: request.risk });
    const pre = policy.preDecide(request);
    const known: Decision | null = 'ask' in pre ? null : pre;
    if (known && !known.approved) {
      const next = sandwich.settle(state, { callId: call.id, tool: tool.name, outcome: 'denied', content: `denied: ${known.reason}`, tier: 'hot' }, false);
      return { state: next, ok: false };
    }
    const prepared = await this.prepare(tool, input, call.id, signal);
    if (!prepared.ok) {
      const next = sandwich.settle(state, { callId: call.id, tool: tool.name, outcome: 'error', content: prepared.message, tier: 'hot' }, false);
      return { state: next, ok: false };
    }
    let current = sandwich.commitIntent(state, request, tool, known, prepared.value);
    fault?.('after-intent');
    if (!known) {
      const decision = await this.ask(request, signal, emit);
      current = sandwich.commitApproval(current, request, tool, decision);
      if (!decision.approved) return { state: current, ok: false };
    }
    const result = await sandwich.execute(tool, input, call.id, signal);
    fault?.('before-settlement');
    return { state: sandwich.settle(current, result, true), ok: result.outcome === 'ok' };
  }

  private async prepare(tool: AnyTool, input: unknown, callId: string, signal: AbortSignal): Promise<{ ok: true; value: unknown } | { ok: false; message: string }> {
    if (tool.replay !== 'guarded' || !tool.prepare) return { ok: true, value: undefined };
    try {
      return { ok: true, value: await tool.prepare(input, { workspaceRoot: this.deps.workspaceRoot, signal, callId }) };
    } catch (error) {
      return { ok: false, message: (error as Error)?.message ?? String(error) };
    }
  }

  private async ask(request: ApprovalRequest, signal: AbortSignal, emit: EventSink): Promise<Decision> {
    const { approver } = this.deps;
    if (!approver) throw new Error('assert: the policy asked, but no interactive approver is wired');
    emit({ type: 'approval-needed', request });
    const decision = await approver.decide(request, signal);
    if (signal.aborted && decision.approved) return { approved: false, by: 'interrupted', reason: 'interrupted' };
    if (request.risk === 'Destructive' && decision.approved && decision.by !== 'user') {
      throw new Error(`assert: a Destructive call was approved by ${decision.by}, not by the user`);
    }
    return decision;
  }

  private async callModel(signal: AbortSignal, emit: EventSink): Promise<{ ok: true; result: CompletionResult } | { ok: false; error: ProviderError; partial: string }> {
    const { store, provider, tools, systemPrompt } = this.deps;
    const head = currentHead(store);
    const messages = buildMessages(systemPrompt, store.tree.pathTo(head.entryId));
    let partial = '';
    let ledgerFailure: unknown = null;
    const onEvent = (event: CompletionEvent): void => {
      if (event.type === 'text') partial += event.delta;
      if (event.type === 'discard') partial = '';
      if (event.type === 'tool_call') return;
      if (event.type !== 'attempt') {
        emit(event);
        return;
      }
      emit({ type: 'attempt', report: event.report });
      try {
        this.recordAttempt(event.report, head.entryId, emit);
      } catch (error) {
        ledgerFailure ??= error;
      }
    };
    try {
      const result = await provider.complete({ model: this.model, messages, tools: tools.definitions(), signal }, onEvent);
      if (ledgerFailure) throw ledgerFailure;
      return { ok: true, result };
    } catch (error) {
      if (error instanceof ProviderError) return { ok: false, error, partial };
      throw error;
    }
  }

  private recordAttempt(report: AttemptReport, entryId: string | null, emit: EventSink): void {
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
    const [row] = store.commit([{ kind: 'usage', id: store.newUsageId(), entryId, usage }]);
    if (row?.kind === 'usage') emit({ type: 'usage', row });
  }

  private failModel(sandwich: Sandwich, state: MachineState, reply: { error: ProviderError; partial: string }, emit: EventSink): TurnResult {
    const { error, partial } = reply;
    const batch = new AppendBatch(this.deps.store);
    if (partial) batch.entry('assistant', { text: partial, toolCalls: [], model: this.model, finishReason: error.kind === 'aborted' ? 'interrupted' : 'error' });
    if (error.kind === 'aborted') {
      sandwich.move(state, 'Final', batch.build());
      emit({ type: 'turn-ended', outcome: 'aborted', text: partial });
      return { outcome: 'aborted', text: partial };
    }
    const text = `${error.message}${error.hint ? ` (${error.hint})` : ''}`;
    batch.entry('notice', { level: 'error', source: 'provider', text });
    sandwich.move(state, 'Final', batch.build());
    emit({ type: 'error', kind: error.kind, message: error.message, hint: error.hint });
    emit({ type: 'turn-ended', outcome: 'error', text });
    return { outcome: 'error', text };
  }

  private finish(sandwich: Sandwich, state: MachineState, outcome: TurnOutcome, text: string, emit: EventSink): TurnResult {
    const batch = new AppendBatch(this.deps.store);
    batch.entry('notice', { level: outcome === 'aborted' ? 'info' : 'warn', source: 'loop', text });
    sandwich.move(state, 'Final', batch.build());
    emit({ type: 'notice', level: 'warn', text });
    emit({ type: 'turn-ended', outcome, text });
    return { outcome, text };
  }
}

/** The state a new turn starts from: Idle or Final (a leftover mid-turn state is closed first). */
function readyState(store: AgentDeps['store'], sandwich: Sandwich): MachineState {
  const state = machineState(store);
  if (state.pc === 'Idle' || state.pc === 'Final') return state;
  return sandwich.move(state, 'Final');
}
