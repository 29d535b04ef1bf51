/** Shared set-up for the provider tests: a provider aimed at a local chat server, with a fixed clock, seeded randomness and a sleep that records its waits. */
import type { Clock } from '../../../src/core/clock';
import { seededRandom } from '../../../src/core/clock';
import { OpenAIProvider, type OpenAIProviderOptions } from '../../../src/core/provider/openai-chat/openai-provider';
import type {
  AttemptReport,
  CompletionEvent,
  CompletionRequest,
  CompletionResult,
} from '../../../src/core/provider/provider';
import type { Sleep } from '../../../src/core/provider/retry';

/** A clock that moves `stepMs` forward every time it is read. */
export function steppingClock(startMs: number, stepMs: number): Clock {
  let nowMs = startMs;
  return {
    nowMs: () => {
      const current = nowMs;
      nowMs += stepMs;
      return current;
    },
    nowNs: () => BigInt(nowMs) * 1_000_000n,
  };
}

export interface RecordingSleep {
  readonly sleep: Sleep;
  readonly waitsMs: number[];
}

/** Records each wait and returns at once (rejecting if the signal is already aborted). */
export function recordingSleep(): RecordingSleep {
  const waitsMs: number[] = [];
  const sleep: Sleep = async (ms, signal) => {
    waitsMs.push(ms);
    if (signal.aborted) {
      const error = new Error('aborted');
      error.name = 'AbortError';
      throw error;
    }
  };
  return { sleep, waitsMs };
}

export function makeProvider(baseURL: string, overrides: Partial<OpenAIProviderOptions> = {}): OpenAIProvider {
  return new OpenAIProvider({
    baseURL,
    apiKey: 'sk-test',
    random: seededRandom(42),
    clock: steppingClock(1_000_000, 5),
    retry: { jitter: 'none' },
    ...overrides,
  });
}

export function userRequest(text: string, extra: Partial<CompletionRequest> = {}): CompletionRequest {
  return {
    model: 'tole-test-model',
    messages: [{ role: 'user', content: text }],
    tools: [],
    signal: new AbortController().signal,
    ...extra,
  };
}

export interface Run {
  readonly events: CompletionEvent[];
  readonly attempts: AttemptReport[];
  readonly result?: CompletionResult;
  readonly error?: unknown;
}

/** Runs one completion to its end, keeping every event and the result or the thrown error. */
export async function run(provider: OpenAIProvider, request: CompletionRequest): Promise<Run> {
  const events: CompletionEvent[] = [];
  try {
    const result = await provider.complete(request, (event) => events.push(event));
    return { events, attempts: attemptsOf(events), result };
  } catch (error) {
    return { events, attempts: attemptsOf(events), error };
  }
}

function attemptsOf(events: readonly CompletionEvent[]): AttemptReport[] {
  return events.flatMap((event) => (event.type === 'attempt' ? [event.report] : []));
}

export function textOf(events: readonly CompletionEvent[]): string {
  return events.map((event) => (event.type === 'text' ? event.delta : '')).join('');
}
