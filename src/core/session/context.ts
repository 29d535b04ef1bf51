import type { ChatMessage, ToolCallRequest } from '../provider/provider';
import type { AnyEntry } from '../tree/entry-types';

export const INTERRUPTED_CALL_TEXT = 'not run: the turn was interrupted before this call started';

/**
 * The conversation the model sees: the system prompt, then the path from the root (or from the
 * newest summary on it) to the head. Every tool call gets exactly one tool message.
 */
export function buildMessages(systemPrompt: string, path: readonly AnyEntry[]): ChatMessage[] {
  const start = lastSummaryIndex(path);
  const messages: ChatMessage[] = [{ role: 'system', content: systemPrompt }];
  let open: ToolCallRequest[] = [];
  const closeOpenCalls = (): void => {
    for (const call of open) messages.push({ role: 'tool', toolCallId: call.id, content: INTERRUPTED_CALL_TEXT });
    open = [];
  };
  for (let i = Math.max(start, 0); i < path.length; i++) {
    const entry = path[i]!;
    switch (entry.type) {
      case 'summary':
        messages.push({ role: 'user', content: `[summary of the conversation so far]\n${entry.payload.text}` });
        break;
      case 'user':
        closeOpenCalls();
        messages.push({ role: 'user', content: entry.payload.text });
        break;
      case 'assistant':
        closeOpenCalls();
        messages.push({ role: 'assistant', content: entry.payload.text, ...(entry.payload.toolCalls.length > 0 ? { toolCalls: entry.payload.toolCalls } : {}) });
        open = [...entry.payload.toolCalls];
        break;
      case 'tool_result': {
        const index = open.findIndex((c) => c.id === entry.payload.callId);
        if (index === -1) break;
        open.splice(index, 1);
        messages.push({ role: 'tool', toolCallId: entry.payload.callId, content: entry.payload.content });
        break;
      }
      case 'notice':
        if (entry.payload.toModel) {
          closeOpenCalls();
          messages.push({ role: 'user', content: `[tole] ${entry.payload.text}` });
        }
        break;
      case 'tool_intent':
      case 'approval':
        break;
      default: {
        const never: never = entry;
        throw new Error(`assert: unhandled entry ${(never as AnyEntry).type}`);
      }
    }
  }
  closeOpenCalls();
  return messages;
}

function lastSummaryIndex(path: readonly AnyEntry[]): number {
  for (let i = path.length - 1; i >= 0; i--) if (path[i]!.type === 'summary') return i;
  return -1;
}
