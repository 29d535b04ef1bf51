/** What every API kind's provider is built from: the server, the key, the limits, the clock. */
import type { Clock, Random } from '../clock';
import type { RetryPolicy, Sleep } from './retry';
import type { Fetch } from './sse-response';

export interface ProviderOptions {
  /** Shown in the usage ledger and the UI; the kind's name unless given. */
  readonly name?: string;
  readonly baseURL: string;
  /** May be empty for local servers. */
  readonly apiKey?: string;
  /** Used when a request names no model. */
  readonly defaultModel?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly retry?: Partial<RetryPolicy>;
  readonly random: Random;
  readonly clock: Clock;
  readonly sleep?: Sleep;
  /** Limit on waiting for the response headers of one attempt. */
  readonly timeoutMs?: number;
  /** Limit on silence inside a started stream; after it the attempt counts as a dropped stream. */
  readonly streamIdleTimeoutMs?: number;
  /** Limit on waiting for the first token once the stream is open (a long prompt takes a while). */
  readonly firstTokenTimeoutMs?: number;
  /** Limit on one model call as a whole: every attempt and every wait between them. */
  readonly callTimeoutMs?: number;
  /** The fetch beneath the client (tests); node:http (http-fetch.ts) unless given. */
  readonly fetch?: Fetch;
}

export const DEFAULT_TIMEOUT_MS = 600_000;
export const DEFAULT_STREAM_IDLE_TIMEOUT_MS = 120_000;
export const DEFAULT_FIRST_TOKEN_TIMEOUT_MS = 300_000;
export const DEFAULT_CALL_TIMEOUT_MS = 900_000;
