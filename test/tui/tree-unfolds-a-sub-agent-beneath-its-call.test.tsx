/**
 * A `task` call (⧉) in the tree unfolds its sub-agent's entries beneath it, read from the child's
 * own session file (read-only); ⏎ or ← folds them again, and a child file that is missing or
 * damaged says why in one row. While the unfolded call is selected the transcript shows the child.
 */
import { appendFileSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { seededRandom } from '../../src/core/clock';
import { HEAD_KEY, NS, type LaneHead } from '../../src/core/registers/namespaces';
import { SessionStore } from '../../src/core/storage/session-store';
import type { SessionEvent } from '../../src/core/session/events';
import type { ChildEvent } from '../../src/core/session/sub-agents';
import { eventually, KEYS, leftColumns, pane, renderScreen, stripAnsi, type Screen } from './harness';
import { append, emptyStore, fixedClock } from './session-fixture';
import { inFullColor } from './full-color';

let screen: Screen | undefined;
inFullColor();
afterEach(() => screen?.unmount());

const CHILD_ID = '1764460000123456789-abcdef';

/** A parent whose `task` call started sub-agent CHILD_ID, and (unless `noChild`) the child's file beside it. */
function parentWithChild(noChild = false): { store: SessionStore; childPath: string } {
  const store = emptyStore();
  append(store, 'user', { text: 'review the storage layer' });
  append(store, 'assistant', {
    text: '',
    toolCalls: [{ id: 'call_t', name: 'task', arguments: '{"prompt":"review jsonl.ts"}' }],
    model: 'gpt-4.1',
    finishReason: 'tool_calls',
  });
  const intent = append(store, 'tool_intent', {
    callId: 'call_t',
    tool: 'task',
    input: { prompt: 'review jsonl.ts' },
    subject: 'review jsonl.ts',
    risk: 'ReadOnly',
    reason: 'starts a sub-agent',
    replay: 'idempotent',
    approval: { approved: true, by: 'policy' },
    prepared: { sessionId: CHILD_ID },
  });
  append(store, 'tool_result', {
    callId: 'call_t',
    tool: 'task',
    outcome: 'ok',
    content: 'the append path is sound',
    tier: 'warm',
    durationMs: 40,
  });
  append(store, 'assistant', {
    text: 'The reviewer found nothing wrong.',
    toolCalls: [],
    model: 'gpt-4.1',
    finishReason: 'stop',
  });
  const child = SessionStore.create(dirname(store.path), {
    clock: fixedClock(1_764_460_100_000),
    random: seededRandom(9),
    cwd: '/work/project',
    id: CHILD_ID,
    parent: {
      sessionId: store.header.id,
      entryId: intent,
      task: { callId: 'call_t', agent: 'reviewer', depth: 1 },
    },
  });
  const childPath = child.path;
  if (noChild) {
    child.close();
    rmSync(childPath);
    return { store, childPath };
  }
  append(child, 'user', { text: 'review jsonl.ts' });
  append(child, 'assistant', {
    text: 'CHILD-ANSWER: the append path is sound',
    toolCalls: [],
    model: 'gpt-4.1',
    finishReason: 'stop',
  });
  child.close();
  return { store, childPath };
}

const treeOf = (frame: string): string => pane(frame, 'tree');

/** The tree row drawn in inverse video (the selection, with NO_COLOR on). */
function selectedRow(frame: string): string {
  const line = frame.split('\n').find((l) => l.includes('\x1b[7m'));
  return line ? leftColumns(line).replace(/\x1b\[[0-9;]*m/g, '') : '';
}

async function selectTaskCall(): Promise<void> {
  await screen!.press(KEYS.tab);
  await screen!.waitFor('check out');
  await screen!.press(KEYS.home, KEYS.down, KEYS.down);
  await vi.waitFor(() => expect(selectedRow(screen!.frame())).toContain('⧉ review jsonl.ts'));
}

describe('a task call in the tree', () => {
  it('unfolds the child entries beneath it and folds them again', async () => {
    const { store } = parentWithChild();
    const head = store.registers.get<LaneHead>(NS.laneHead, HEAD_KEY);
    screen = renderScreen({ store, noColor: true });
    await screen.waitFor('5 entries');
    await selectTaskCall();
    expect(treeOf(screen.frame())).not.toContain('┊');
    expect(screen.frame()).not.toContain('CHILD-ANSWER');

    await screen.press(KEYS.enter);
    const frame = await screen.waitFor('not check-out targets here');
    const tree = treeOf(frame);
    expect(tree).toContain('┊ 2 entries, read-only');
    expect(tree).toContain('┊ ● review jsonl.ts');
    expect(tree).toContain('┊ ◆ CHILD-ANSWER');
    // The transcript shows the child's path while the call is selected, and says whose it is.
    expect(frame).toContain(`sub-agent ${CHILD_ID} · 2 entries`);
    expect(pane(frame, `sub-agent ${CHILD_ID} · 2 entries`)).not.toContain('The reviewer found nothing wrong');
    // Not a check-out: the parent's head did not move.
    expect(store.registers.get<LaneHead>(NS.laneHead, HEAD_KEY)).toEqual(head);

    // ↓ passes over the child rows to the parent's next entry; the transcript is the parent's again.
    await screen.press(KEYS.down);
    await vi.waitFor(() => expect(screen!.frame()).not.toContain(`sub-agent ${CHILD_ID} · 2 entries`));
    expect(treeOf(screen.frame())).toContain('┊ ◆ CHILD-ANSWER');
    await screen.press(KEYS.up);
    await screen.waitFor(`sub-agent ${CHILD_ID} · 2 entries`);

    await screen.press(KEYS.left);
    await vi.waitFor(() => expect(treeOf(screen!.frame())).not.toContain('CHILD-ANSWER'));
    await screen.press(KEYS.right);
    await vi.waitFor(() => expect(treeOf(screen!.frame())).toContain('CHILD-ANSWER'));
    await screen.press(KEYS.enter);
    await vi.waitFor(() => expect(treeOf(screen!.frame())).not.toContain('CHILD-ANSWER'));
  });

  it('follows a running child: what it commits after the unfold appears beneath the call', async () => {
    const { store, childPath } = parentWithChild();
    const listeners = new Set<(event: ChildEvent) => void>();
    const source = {
      onChildEvent: (listener: (event: ChildEvent) => void) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    };
    const hear = (event: SessionEvent): void => {
      for (const listener of listeners)
        listener({ callId: 'call_t', sessionId: CHILD_ID, agent: 'reviewer', model: 'gpt-4.1', event });
    };
    screen = renderScreen({ store, noColor: true, subAgents: source });
    await screen.waitFor('5 entries');
    await selectTaskCall();
    await screen.press(KEYS.enter);
    await eventually(() => expect(treeOf(screen!.frame())).toContain('┊ 2 entries, read-only'));

    const child = SessionStore.open(childPath, { clock: fixedClock(1_764_460_200_000), random: seededRandom(3) });
    append(child, 'user', { text: 'LATER-PROMPT: and the reader too' });
    child.close();
    hear({ type: 'turn-started', promptEntryId: null, lane: 'main' });

    await eventually(() => expect(treeOf(screen!.frame())).toContain('┊ 3 entries, read-only'));
    const frame = screen.frame();
    expect(treeOf(frame)).toContain('┊ ● LATER-PROMPT');
    // Still unfolded and selected: the transcript shows the child's path as it stands now.
    expect(frame).toContain(`sub-agent ${CHILD_ID} · 3 entries`);

    // Folded, the call stays folded whatever the child commits next.
    await screen.press(KEYS.left);
    await eventually(() => expect(treeOf(screen!.frame())).not.toContain('┊'));
    hear({ type: 'turn-ended', outcome: 'done', text: 'done' });
    await screen.press(KEYS.down, KEYS.up);
    await eventually(() => expect(selectedRow(screen!.frame())).toContain('⧉ review jsonl.ts'));
    expect(treeOf(screen.frame())).not.toContain('┊');
  });

  it('hints ⏎ unfold on the call and ⏎ check out on other rows, in the status bar and the ? list', async () => {
    const { store } = parentWithChild();
    screen = renderScreen({ store, noColor: true });
    await screen.waitFor('5 entries');
    await selectTaskCall();
    const plain = (): string => stripAnsi(screen!.frame());
    await eventually(() => expect(plain()).toContain('⏎ unfold'));
    expect(plain()).not.toContain('⏎ check out');
    // Unfolded, ⏎ folds it again, and says so.
    await screen.press(KEYS.enter);
    await eventually(() => expect(plain()).toContain('⏎ fold '));
    await screen.press(KEYS.enter);
    await eventually(() => expect(plain()).toContain('⏎ unfold'));

    await screen.press(KEYS.up);
    await eventually(() => expect(selectedRow(screen!.frame())).toContain('◆ → task'));
    await eventually(() => expect(plain()).toContain('⏎ check out'));
    expect(plain()).not.toContain('⏎ unfold');

    await screen.press('?');
    const help = await screen.waitFor("on a sub-agent's task call (⧉): unfold");
    expect(help).toContain('on an unfolded task call (⧉): fold');
    expect(help).toContain('check out the entry');
  });

  it('says in one row why a missing child file cannot be shown', async () => {
    const { store, childPath } = parentWithChild(true);
    screen = renderScreen({ store, noColor: true });
    await screen.waitFor('5 entries');
    await selectTaskCall();
    await screen.press(KEYS.enter);
    const frame = await screen.waitFor('⚠ its file is missing');
    // The flash says it whole: which file, and what to do.
    expect(frame).toContain(childPath.slice(-26));
  });

  it('says in one row why a damaged child file cannot be shown', async () => {
    const { store, childPath } = parentWithChild();
    appendFileSync(childPath, '{"this is not":"a commit"}\n{"neither":1}\n');
    screen = renderScreen({ store, noColor: true });
    await screen.waitFor('5 entries');
    await selectTaskCall();
    await screen.press(KEYS.enter);
    const frame = await screen.waitFor('⚠ its file is damaged');
    expect(frame).toContain('tole check');
    expect(treeOf(frame)).not.toContain('CHILD-ANSWER');
  });
});
