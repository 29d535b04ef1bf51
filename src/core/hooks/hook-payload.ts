import type { Risk } from '../approval/risk';
import type { HookEvent } from './hook-config';

/**
 * What a hook reads as JSON on stdin (snake_case, as hook scripts expect). Every field that is a
 * string, number or boolean is also in the environment as `TOLE_<FIELD>`; `input` as JSON.
 */
export interface HookPayload {
  readonly event: HookEvent;
  readonly session_id: string;
  readonly cwd: string;
  readonly model: string;
  /** preToolUse, postToolUse. */
  readonly tool?: string;
  readonly call_id?: string;
  readonly input?: unknown;
  readonly risk?: Risk;
  readonly subject?: string;
  /** postToolUse: how the call settled, and what the model reads of its output. */
  readonly outcome?: string;
  readonly output?: string;
  /** userPrompt (`steered`: sent into a running turn). */
  readonly prompt?: string;
  readonly steered?: boolean;
  /** turnError. */
  readonly error?: string;
  readonly error_kind?: string;
  /** preCompact. */
  readonly trigger?: 'threshold' | 'overflow' | 'manual';
  readonly estimated_tokens?: number;
  readonly context_window_tokens?: number;
}

/** The longest value one `TOLE_*` variable holds (Linux refuses a single string over 128 KiB). */
const MAX_ENV_VALUE_CHARS = 16 * 1024;

/**
 * The hook's environment: the host's, without any inherited `TOLE_*` variable (a stale one would
 * lie), plus `TOLE_<FIELD>` for each field of the payload.
 */
export function hookEnv(
  base: Readonly<Record<string, string | undefined>>,
  payload: HookPayload,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(base)) {
    if (value !== undefined && !key.startsWith('TOLE_')) env[key] = value;
  }
  for (const [key, value] of Object.entries(payload)) {
    const text = envText(value);
    if (text !== null)
      env[`TOLE_${key.toUpperCase()}`] = text.length > MAX_ENV_VALUE_CHARS ? text.slice(0, MAX_ENV_VALUE_CHARS) : text;
  }
  return env;
}

function envText(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return value.replace(/\0/g, '');
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}
