/**
 * Session files shaped like real turns, written through the real SessionStore: prompts, answers,
 * tool calls as intent / approval / settlement with their pending and op-state cells set and
 * deleted, usage rows, a second branch. And the comparison a read-back must pass.
 */
import type { SessionStore } from '../../src/core/storage/session-store';
import { NS } from '../../src/core/registers/namespaces';
import type { DraftRecord } from '../../src/core/storage/records';
import { createStore } from './storage-fixtures';

export interface TurnShape {
  readonly prompt: string;
  /** A tool call in the turn, with its risk and decision. */
  readonly tool?: {
    readonly name: string;
    readonly subject: string;
    readonly risk: 'ReadOnly' | 'Write' | 'Destructive';
    readonly by: 'user' | 'policy' | 'yes' | 'headless';
    readonly approved: boolean;
  };
  readonly model?: string;
  readonly costUsdMicros?: number;
  readonly lane?: string;
}

function leafOf(store: SessionStore, lane: string): string | null {
  return store.registers.get<string>(NS.laneLeaf, lane) ?? store.registers.get<string>(NS.laneLeaf, 'main') ?? null;
}

/** Appends entries to `lane` as one commit, moving its leaf and the head: what the turn loop commits. */
function append(
  store: SessionStore,
  lane: string,
  entries: { type: string; payload: unknown }[],
  extra: DraftRecord[] = [],
): string[] {
  let parent = leafOf(store, lane);
  const ids: string[] = [];
  const drafts: DraftRecord[] = [];
  for (const e of entries) {
    const id = store.newEntryId();
    drafts.push({
      kind: 'entry',
      timestamp: store.now(),
      id,
      parentId: parent,
      type: e.type,
      payload: e.payload,
    } as DraftRecord);
    parent = id;
    ids.push(id);
  }
  drafts.push(...extra);
  drafts.push({ kind: 'register', op: 'set', namespace: NS.laneLeaf, key: lane, value: parent });
  drafts.push({ kind: 'register', op: 'set', namespace: NS.laneHead, key: 'head', value: { lane, entryId: parent } });
  store.commit(drafts);
  return ids;
}

let callNumber = 1;

/** One turn: prompt, answer (with a tool call and its three commits when asked), usage row. */
export function addTurn(store: SessionStore, turn: TurnShape): void {
  const lane = turn.lane ?? 'main';
  const model = turn.model ?? 'gpt-4.1-mini';
  append(store, lane, [{ type: 'user', payload: { text: turn.prompt } }]);
  const callId = `call_${callNumber++}`;
  const toolCalls = turn.tool
    ? [{ id: callId, name: turn.tool.name, arguments: JSON.stringify({ path: turn.tool.subject }) }]
    : [];
  const [assistant] = append(store, lane, [
    {
      type: 'assistant',
      payload: { text: 'on it', toolCalls, model, finishReason: turn.tool ? 'tool_calls' : 'stop' },
    },
  ]);
  store.commit([
    {
      kind: 'usage',
      id: store.newUsageId(),
      entryId: assistant!,
      usage: {
        model,
        attempt: 1,
        outcome: 'ok',
        inputTokens: 1000,
        outputTokens: 50,
        cachedInputTokens: 0,
        cacheWriteTokens: 0,
        costUsdMicros: turn.costUsdMicros ?? 1234,
        priced: true,
        latencyMs: 20,
        lane,
      },
    },
  ]);
  if (!turn.tool) return;
  const t = turn.tool;
  const atIntent =
    t.by === 'user'
      ? null
      : t.approved
        ? { approved: true, by: t.by }
        : { approved: false, by: t.by, reason: 'headless mode never approves a Destructive call' };
  const [intent] = append(
    store,
    lane,
    [
      {
        type: 'tool_intent',
        payload: {
          callId,
          tool: t.name,
          input: { path: t.subject },
          subject: t.subject,
          risk: t.risk,
          reason: `${t.name} ${t.subject}`,
          replay: 'guarded',
          approval: atIntent,
        },
      },
    ],
    [
      { kind: 'register', op: 'set', namespace: NS.pending, key: callId, value: { tool: t.name } },
      {
        kind: 'register',
        op: 'set',
        namespace: NS.opState,
        key: callId,
        value: { state: t.by === 'user' ? 'awaiting-approval' : 'executing' },
      },
    ],
  );
  if (t.by === 'user') {
    const decision = t.approved
      ? { approved: true, by: 'user', reason: 'approved once at the prompt' }
      : { approved: false, by: 'user', reason: 'denied at the prompt' };
    append(
      store,
      lane,
      [{ type: 'approval', payload: { callId, decision } }],
      [{ kind: 'register', op: 'set', namespace: NS.opState, key: callId, value: { state: 'executing' } }],
    );
  }
  void intent;
  append(
    store,
    lane,
    [
      {
        type: 'tool_result',
        payload: {
          callId,
          tool: t.name,
          outcome: t.approved ? 'ok' : 'denied',
          content: t.approved ? 'done' : 'denied',
          tier: 'full',
          durationMs: 7,
        },
      },
    ],
    [
      { kind: 'register', op: 'delete', namespace: NS.pending, key: callId },
      { kind: 'register', op: 'delete', namespace: NS.opState, key: callId },
    ],
  );
}

/** A closed session file with `turns` turns: some with a Destructive call the user approved. */
export function writeTeamSession(dir: string, turns: number, lane = 'main'): string {
  const store = createStore(dir);
  try {
    for (let i = 0; i < turns; i++) {
      const tool =
        i % 3 === 1
          ? ({
              name: 'delete_path',
              subject: `build/${i}`,
              risk: 'Destructive',
              by: 'user',
              approved: i % 2 === 1,
            } as const)
          : i % 3 === 2
            ? ({ name: 'write_file', subject: `src/${i}.ts`, risk: 'Write', by: 'yes', approved: true } as const)
            : undefined;
      addTurn(store, { prompt: `task ${i}`, lane, ...(tool ? { tool } : {}) });
    }
    return store.path;
  } finally {
    store.close();
  }
}
