import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ScriptedReply } from '../../support/chat-server';
import { checkout, currentHead } from '../../../src/core/session/cursor';
import { exportJson, exportMarkdown } from '../../../src/core/session/export';
import { TASK_STATE_HEADING } from '../../../src/core/session/plan-nudges';
import { TaskStateFold, taskStateAt, taskStateOf } from '../../../src/core/session/task-state';
import { SessionStore } from '../../../src/core/storage/session-store';
import { seededRandom, systemClock } from '../../../src/core/clock';
import type { FaultPoint } from '../../../src/core/session/agent-deps';
import { startChatServer } from '../../support/chat-server';
import { buildAgent, tempDirs } from '../../support/agent-fixtures';
import { startHarness, textOf, toolCall } from '../hooks/agent-harness';

type Status = 'pending' | 'in_progress' | 'completed';
const plan = (...statuses: Status[]): ScriptedReply =>
  toolCall('update_plan', {
    plan: statuses.map((status, i) => ({ step: ['read the code', 'write the tests', 'fix the bug'][i], status })),
  });
const read = (n: number): ScriptedReply => toolCall('read_file', { path: `a.txt`, offset: n });
const reads = (from: number, count: number): ScriptedReply[] => Array.from({ length: count }, (_, i) => read(from + i));

const REPLAN = 'Your plan has not changed in';

describe('the plan through the turn loop', () => {
  it('a plan set, updated and finished is the branch task state, also after a reopen (a replay)', async () => {
    const h = await startHarness({
      replies: [
        plan('in_progress', 'pending', 'pending'),
        read(1),
        plan('completed', 'in_progress', 'pending'),
        plan('completed', 'completed', 'completed'),
        { text: 'done' },
      ],
    });
    writeFileSync(path.join(h.root, 'a.txt'), 'alpha\n'.repeat(30));
    expect(await h.run('fix it')).toEqual({ outcome: 'done', text: 'done' });
    const state = taskStateAt(h.store);
    expect(state.source).toBe('tool');
    expect(state.plan.map((s) => s.status)).toEqual(['completed', 'completed', 'completed']);
    expect(state.current).toBeNull();
    expect(state.lastAction).toMatchObject({ tool: 'update_plan', outcome: 'ok' });
    expect(state.rounds).toBe(4);

    const plans = h.events.filter((e) => e.type === 'plan');
    expect(plans.map((e) => (e.type === 'plan' ? e.current : -1))).toEqual([0, 1, null]);

    const file = h.store.path;
    h.store.close();
    const reopened = SessionStore.open(file, { clock: systemClock, random: seededRandom(3), readOnly: true });
    expect(taskStateAt(reopened)).toEqual(state);
    reopened.close();
  });

  it('8 rounds without a plan change bring exactly one replan nudge, recorded as a notice for the model', async () => {
    const h = await startHarness({
      limits: { stallRounds: 100 },
      replies: [plan('in_progress', 'pending', 'pending'), ...reads(1, 11), { text: 'stopped' }],
    });
    writeFileSync(path.join(h.root, 'a.txt'), 'alpha\n'.repeat(30));
    expect((await h.run('go')).outcome).toBe('done');
    const nudges = h.pathOf('notice').filter((n) => n.payload.text.startsWith(REPLAN));
    expect(nudges).toHaveLength(1);
    expect(nudges[0]!.payload).toMatchObject({ source: 'loop', toModel: true });
    const requests = h.chatRequests();
    // The plan round, then 8 reads: the request after the 9th round is the first to carry it.
    expect(requests.slice(0, 9).some((r) => textOf(r).includes(REPLAN))).toBe(false);
    expect(textOf(requests[9]!)).toContain(REPLAN);
  });

  it('a plan update resets the gate', async () => {
    const h = await startHarness({
      limits: { stallRounds: 100, replanAfterRounds: 3 },
      replies: [
        plan('in_progress', 'pending', 'pending'),
        ...reads(1, 2),
        plan('completed', 'in_progress', 'pending'),
        ...reads(3, 2),
        { text: 'ok' },
      ],
    });
    writeFileSync(path.join(h.root, 'a.txt'), 'alpha\n'.repeat(30));
    await h.run('go');
    expect(h.pathOf('notice').filter((n) => n.payload.text.startsWith(REPLAN))).toHaveLength(0);
  });

  it('an update_plan call that was refused (two steps in progress) is no plan change: the gate still fires', async () => {
    const bad = toolCall('update_plan', {
      plan: [
        { step: 'a', status: 'in_progress' },
        { step: 'b', status: 'in_progress' },
      ],
    });
    const h = await startHarness({
      limits: { stallRounds: 100, replanAfterRounds: 3 },
      replies: [plan('in_progress', 'pending', 'pending'), read(1), bad, read(2), { text: 'ok' }],
    });
    writeFileSync(path.join(h.root, 'a.txt'), 'alpha\n'.repeat(30));
    await h.run('go');
    expect(h.pathOf('tool_result')[2]!.payload.outcome).toBe('error');
    expect(taskStateAt(h.store).plan.map((s) => s.status)).toEqual(['in_progress', 'pending', 'pending']);
    expect(h.pathOf('notice').filter((n) => n.payload.text.startsWith(REPLAN))).toHaveLength(1);
  });

  it('the fold the screen keeps gives the same state as a whole replay, across growth and a check-out', async () => {
    const h = await startHarness({
      replies: [plan('in_progress', 'pending', 'pending'), plan('completed', 'in_progress', 'pending'), { text: 'ok' }],
    });
    const fold = new TaskStateFold();
    await h.run('go');
    const early = h.store.tree.pathTo(h.pathOf('tool_result')[0]!.id);
    expect(fold.follow(early)).toEqual(taskStateOf(early));
    expect(fold.follow(h.path())).toEqual(taskStateOf(h.path()));
    expect(fold.follow(early)).toEqual(taskStateOf(early));
  });

  it('two plan calls in one reply, run side by side with a read: the later call in the reply is the plan', async () => {
    const args = (first: Status) => ({
      plan: [
        { step: 'x', status: first },
        { step: 'y', status: 'pending' },
      ],
    });
    const h = await startHarness({
      replies: [
        {
          toolCalls: [
            { name: 'update_plan', arguments: JSON.stringify(args('completed')) },
            { name: 'list_dir', arguments: '{"path":"."}' },
            { name: 'update_plan', arguments: JSON.stringify(args('in_progress')) },
          ],
        },
        { text: 'ok' },
      ],
    });
    await h.run('go');
    expect(taskStateAt(h.store).plan[0]!.status).toBe('in_progress');
    expect(taskStateAt(h.store).rounds).toBe(1);
  });

  it('under an agent profile without update_plan, the nudge asks for a PLAN: list instead of a tool it lacks', async () => {
    const h = await startHarness({
      limits: { stallRounds: 100, replanAfterRounds: 2 },
      replies: [...reads(1, 2), { text: 'ok' }],
    });
    h.agent.switchProfile({ name: 'reader', systemPrompt: 'read only', tools: ['read_file'] });
    writeFileSync(path.join(h.root, 'a.txt'), 'alpha\n'.repeat(30));
    await h.run('go');
    const [nudge] = h.pathOf('notice').filter((n) => n.payload.text.includes('without a plan'));
    expect(nudge!.payload.text).toContain('as a PLAN: list');
    expect(nudge!.payload.text).not.toContain('update_plan');
  });

  it('a task without any plan is asked for one after 8 rounds', async () => {
    const h = await startHarness({ limits: { stallRounds: 100 }, replies: [...reads(1, 8), { text: 'ok' }] });
    writeFileSync(path.join(h.root, 'a.txt'), 'alpha\n'.repeat(30));
    await h.run('go');
    const texts = h.pathOf('notice').map((n) => n.payload.text);
    expect(texts.filter((t) => t.includes('without a plan'))).toHaveLength(1);
  });

  it('every 10th round the request carries the task state before the newest round, and the others do not', async () => {
    const h = await startHarness({
      limits: { stallRounds: 100, replanAfterRounds: 100 },
      replies: [plan('in_progress', 'pending', 'pending'), ...reads(1, 20), { text: 'ok' }],
    });
    writeFileSync(path.join(h.root, 'a.txt'), 'alpha\n'.repeat(30));
    await h.run('go');
    const requests = h.chatRequests();
    expect(requests).toHaveLength(22);
    const carrying = requests.map((r, i) => (textOf(r).includes(TASK_STATE_HEADING) ? i : -1)).filter((i) => i >= 0);
    // Request i follows round i: rounds 10 and 20.
    expect(carrying).toEqual([10, 20]);
    const messages = requests[10]!.body!.messages as { role: string; content: string }[];
    const at = messages.findIndex((m) => m.role === 'user' && m.content.startsWith(TASK_STATE_HEADING));
    expect(messages.slice(at + 1).map((m) => m.role)).toEqual(['assistant', 'tool']);
    expect(messages[at]!.content).toContain('1. [>] read the code');
    expect(messages[at]!.content).toContain('Last action: read_file a.txt -> ok');
    // Never stored: no entry holds it.
    expect(h.path().some((e) => JSON.stringify(e.payload).includes(TASK_STATE_HEADING))).toBe(false);
    // The next prompt after the answer is no round: its request does not carry it again.
    h.server.push({ text: 'fine' });
    await h.run('thanks');
    expect(textOf(h.chatRequests().at(-1)!)).not.toContain(TASK_STATE_HEADING);
  });

  it('infers the step from PLAN: lines when the model keeps no plan, and says so', async () => {
    const h = await startHarness({
      limits: { reinjectPlanEveryRounds: 2 },
      replies: [
        { text: 'PLAN:\n1. look around\n2. change it', toolCalls: [{ name: 'list_dir', arguments: '{"path":"."}' }] },
        { text: '- [x] look around\n- [ ] change it', toolCalls: [{ name: 'glob', arguments: '{"pattern":"*"}' }] },
        { text: 'ok' },
      ],
    });
    await h.run('go');
    const state = taskStateAt(h.store);
    expect(state.source).toBe('inferred');
    expect(state.plan).toEqual([
      { step: 'look around', status: 'completed' },
      { step: 'change it', status: 'in_progress' },
    ]);
    expect(textOf(h.chatRequests()[2]!)).toContain('read from the PLAN:/checklist lines');
  });

  it('a forced compaction leaves the plan as it was, and every later request still carries it', async () => {
    const h = await startHarness({
      compaction: { tailMessages: 2, contextWindowTokens: 1_000_000 },
      replies: [plan('completed', 'in_progress', 'pending'), { text: 'planned' }, { text: 'one' }, { text: 'two' }],
    });
    await h.run('plan it');
    await h.run('first');
    await h.run('second');
    const before = taskStateAt(h.store);
    h.server.push({ text: '## Goal\nfix the bug\n## Decisions\n- read the code first' });
    expect(await h.agent.compact(new AbortController().signal, () => {})).toMatchObject({ kind: 'summarized' });
    expect(taskStateAt(h.store)).toEqual(before);
    // The summarizer was shown the task state, and told not to restate it.
    const summaryCall = h.chatRequests().at(-1)!;
    expect(textOf(summaryCall)).toContain('Kept beside your summary (do not restate it):');
    expect(textOf(summaryCall)).toContain('2. [>] write the tests');

    h.server.push({ text: 'after' });
    await h.run('go on');
    const messages = h.chatRequests().at(-1)!.body!.messages as { role: string; content: string }[];
    // Cold zone (task state) right after the summary, then the hot tail verbatim.
    expect(messages[1]!.content).toContain('## Decisions');
    expect(messages[2]!.content.startsWith(TASK_STATE_HEADING)).toBe(true);
    expect(messages[2]!.content).toContain('2. [>] write the tests');
    // The update_plan call itself is behind the summary: only the cold zone brings the plan.
    expect(JSON.stringify(messages.slice(3))).not.toContain('update_plan');
  });

  it('checking out an earlier entry shows the plan as it was there', async () => {
    const h = await startHarness({
      replies: [plan('in_progress', 'pending', 'pending'), plan('completed', 'in_progress', 'pending'), { text: 'ok' }],
    });
    await h.run('go');
    const first = h.pathOf('tool_result')[0]!;
    expect(taskStateAt(h.store).current).toBe(1);
    checkout(h.store, first.id);
    expect(taskStateAt(h.store).current).toBe(0);
    expect(taskStateOf(h.store.tree.pathTo(first.parentId)).plan).toEqual([]);
  });

  it('an export carries the plan of every branch', async () => {
    const h = await startHarness({
      replies: [plan('in_progress', 'pending', 'pending'), plan('completed', 'in_progress', 'pending'), { text: 'ok' }],
    });
    await h.run('go');
    const main = currentHead(h.store);
    checkout(h.store, h.pathOf('tool_result')[0]!.id);
    h.server.push(plan('completed', 'completed', 'in_progress'), { text: 'other way' });
    await h.run('skip the tests');
    const other = currentHead(h.store);
    expect(other.lane).not.toBe(main.lane);
    const document = JSON.parse(exportJson(h.store)) as {
      plans: { lane: string; taskState: { current: number | null } }[];
    };
    const current = Object.fromEntries(document.plans.map((p) => [p.lane, p.taskState.current]));
    expect(current).toEqual({ [main.lane]: 1, [other.lane]: 2 });
    const markdown = exportMarkdown(h.store, main.entryId);
    expect(markdown).toContain(
      '## Plan at the end of this branch\n\n- [x] read the code\n- [>] write the tests ← current\n- [ ] fix the bug',
    );
  });

  it('a crash between plan calls resumes with the committed plan', async () => {
    const server = await startChatServer({ defaultReply: { text: 'after' } });
    const dirs = tempDirs('tole-plan-crash-');
    try {
      server.push(plan('in_progress', 'pending', 'pending'), plan('completed', 'in_progress', 'pending'));
      let intents = 0;
      const fault = (point: FaultPoint): void => {
        if (point === 'after-intent' && ++intents === 2) throw new Error('simulated crash');
      };
      const built = buildAgent({ baseURL: server.url, sessionsDir: dirs.sessions, workspaceRoot: dirs.root, fault });
      await expect(built.agent.runTurn('go', new AbortController().signal, () => {})).rejects.toThrow(/simulated/);
      built.store.close();
      const reopened = buildAgent({
        baseURL: server.url,
        sessionsDir: dirs.sessions,
        workspaceRoot: dirs.root,
        sessionPath: built.store.path,
      });
      // The first plan is committed; the second call's intent waits for resume, which settles it (idempotent: run again).
      expect(taskStateAt(reopened.store).plan.map((s) => s.status)).toEqual(['in_progress', 'pending', 'pending']);
      await reopened.agent.resume(new AbortController().signal, () => {});
      expect(taskStateAt(reopened.store).plan.map((s) => s.status)).toEqual(['completed', 'in_progress', 'pending']);
      reopened.store.close();
    } finally {
      await server.close();
      dirs.remove();
    }
  });
});
