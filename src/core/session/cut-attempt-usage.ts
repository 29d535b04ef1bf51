import type { AttemptReport, ChatMessage, TokenUsage, ToolDefinition } from '../provider/provider';
import { estimateTokens } from './compaction';
import { CHARACTER_ESTIMATE } from './token-counter';

/**
 * The usage of an attempt that ended mid-stream (Esc, a dropped stream, a server error after the
 * first tokens) without the server's count: the server billed the prompt and what it streamed,
 * so the ledger keeps tole's estimate of both, four characters a token as the live estimate
 * counts them. Null when the attempt has its usage, answered, or streamed nothing (no sign it
 * was billed).
 */
export function cutAttemptUsage(
  report: AttemptReport,
  streamedChars: number,
  prompt: { readonly messages: readonly ChatMessage[]; readonly tools: readonly ToolDefinition[] },
): TokenUsage | null {
  if (report.usage !== null || report.outcome === 'ok' || streamedChars <= 0) return null;
  return {
    inputTokens: estimateTokens(prompt.messages, prompt.tools, CHARACTER_ESTIMATE),
    outputTokens: Math.ceil(streamedChars / 4),
    cachedInputTokens: 0,
    cacheWriteTokens: 0,
  };
}
