import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { machineState } from '../../../src/core/machine/machine';
import { fileAppears } from '../../support/file-appears';
import { eventuallyDead } from '../../support/process-groups';
import { killLater, messagesOf, recordingApprover, startHarness, textOf, toolCall } from '../hooks/agent-harness';

describe('hooks in the turn loop', () => {
  it('a preToolUse hook that exits 0 adds its stdout to what the model reads, after the tool result', async () => {
    const h = await startHarness({
      hooks: { preToolUse: 'echo "house rule: tabs, not spaces"' },
      replies: [toolCall('read_file', { path: 'a.txt' }), { text: 'done' }],
    });
    writeFileSync(path.join(h.root, 'a.txt'), 'alpha\n');
    expect((await h.run('read a.txt')).outcome).toBe('done');

    const second = messagesOf(h.chatRequests()[1]!);
    const toolAt = second.findIndex((m) => m.role === 'tool');
    const ruleAt = second.findIndex(
      (m) => typeof m.content === 'string' && m.content.includes('house rule: tabs, not spaces'),
    );
    expect(toolAt).toBeGreaterThan(0);
    expect(second[toolAt - 1]!.role).toBe('assistant'); // nothing comes between a call and its result
    expect(ruleAt).toBeGreaterThan(toolAt);
    const notice = h.pathOf('notice').find((n) => n.payload.source === 'hook')!;
    expect(notice.payload).toMatchObject({
      level: 'info',
      toModel: true,
      text: expect.stringContaining('hook preToolUse `echo'),
    });
  });

  it('a userPrompt hook that exits 0 adds context to the prompt it saw', async () => {
    const h = await startHarness({
      hooks: { userPrompt: 'echo "current branch: feature-x"' },
      replies: [{ text: 'ok' }],
    });
    await h.run('what branch?');
    const messages = messagesOf(h.chatRequests()[0]!);
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'user']);
    expect(messages[1]!.content).toBe('what branch?');
    expect(messages[2]!.content).toContain('current branch: feature-x');
  });

  it('exit 2 blocks a write_file: the file is untouched, the call settles as blocked, the reason is in the transcript', async () => {
    const h = await startHarness({
      yes: true,
      hooks: {
        preToolUse: 'if [ "$TOLE_TOOL" = write_file ]; then echo "writes to secrets/ are not allowed" >&2; exit 2; fi',
      },
      replies: [toolCall('write_file', { path: 'secret.txt', content: 'hunter2' }, 'call_w'), { text: 'understood' }],
    });
    const result = await h.run('write the secret');
    expect(result.outcome).toBe('done');
    expect(existsSync(path.join(h.root, 'secret.txt'))).toBe(false);
    const [settled] = h.pathOf('tool_result');
    expect(settled!.payload).toMatchObject({
      callId: 'call_w',
      outcome: 'blocked',
      content: expect.stringContaining('writes to secrets/ are not allowed'),
    });
    expect(h.pathOf('tool_intent')).toEqual([]); // blocked before the intent: the effect can never run, even on resume
    expect(h.pathOf('notice').map((n) => n.payload.text)).toContainEqual(
      expect.stringContaining('blocked: exit 2: writes to secrets/ are not allowed'),
    );
    expect(textOf(h.chatRequests()[1]!)).toContain('blocked by a preToolUse hook: writes to secrets/ are not allowed');
    expect(machineState(h.store).pc).toBe('Final');
  });

  it('a hook that times out blocks a Write call and only warns for read_file', async () => {
    const h = await startHarness({
      yes: true,
      hooks: { timeoutMs: 300, preToolUse: 'sleep 5' },
      replies: [
        {
          toolCalls: [
            { id: 'call_r', name: 'read_file', arguments: '{"path":"a.txt"}' },
            { id: 'call_w', name: 'write_file', arguments: '{"path":"b.txt","content":"x"}' },
          ],
        },
        { text: 'ok' },
      ],
    });
    writeFileSync(path.join(h.root, 'a.txt'), 'alpha\n');
    await h.run('read then write');
    const results = Object.fromEntries(h.pathOf('tool_result').map((r) => [r.payload.callId, r.payload]));
    expect(results['call_r']).toMatchObject({ outcome: 'ok', content: expect.stringContaining('alpha') });
    expect(results['call_w']).toMatchObject({
      outcome: 'blocked',
      content: expect.stringContaining('timed out after 300 ms'),
    });
    expect(existsSync(path.join(h.root, 'b.txt'))).toBe(false);
    const hookTexts = h
      .pathOf('notice')
      .filter((n) => n.payload.source === 'hook')
      .map((n) => n.payload.text);
    expect(hookTexts).toEqual([
      expect.stringMatching(/warning: timed out after 300 ms/),
      expect.stringMatching(/blocked: timed out after 300 ms/),
    ]);
  });

  it('a hook that leaves a child sleeping in the background is killed with its whole group on timeout', async () => {
    const h = await startHarness({
      yes: true,
      hooks: { timeoutMs: 300, preToolUse: 'sleep 30 & echo $! > bg.tmp && mv bg.tmp bg.pid; wait' },
      replies: [toolCall('write_file', { path: 'b.txt', content: 'x' }), { text: 'ok' }],
    });
    // The turn's timers are held until the hook's background child is started (its pid file is
    // there): the hook's timeout then falls after its set-up however slow the machine is.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const turn = h.run('write');
      await fileAppears(path.join(h.root, 'bg.pid'));
      vi.advanceTimersByTime(300);
      vi.useRealTimers();
      await turn;
    } finally {
      vi.useRealTimers();
    }
    const pid = Number(readFileSync(path.join(h.root, 'bg.pid'), 'utf8').trim());
    killLater(pid);
    expect(await eventuallyDead(pid)).toBe(true);
    expect(h.pathOf('tool_result')[0]!.payload.outcome).toBe('blocked');
  });

  it('no hook can approve a Destructive call: the user is still asked, and a denial stands', async () => {
    const approver = recordingApprover(() => ({ approved: false, by: 'user', reason: 'no' }));
    const h = await startHarness({
      approver,
      hooks: { preToolUse: 'echo \'{"decision":"approve","permissionDecision":"allow","approved":true}\'; exit 0' },
      replies: [toolCall('delete_path', { path: 'victim.txt' }), { text: 'ok' }],
    });
    writeFileSync(path.join(h.root, 'victim.txt'), 'keep me');
    await h.run('delete it');
    expect(approver.asked.map((r) => [r.tool, r.risk])).toEqual([['delete_path', 'Destructive']]);
    expect(readFileSync(path.join(h.root, 'victim.txt'), 'utf8')).toBe('keep me');
    expect(h.pathOf('tool_result')[0]!.payload.outcome).toBe('denied');
    expect(h.pathOf('approval')[0]!.payload.decision).toMatchObject({ approved: false, by: 'user' });
  });

  it('headless, a hook that exits 0 does not let a Destructive bash command run', async () => {
    const h = await startHarness({
      yes: true,
      hooks: { preToolUse: 'exit 0' },
      replies: [toolCall('bash', { command: 'rm -rf data' }), { text: 'ok' }],
    });
    const data = path.join(h.root, 'data');
    writeFileSync(data, 'keep');
    await h.run('clean up');
    expect(existsSync(data)).toBe(true);
    expect(h.pathOf('tool_result')[0]!.payload).toMatchObject({ outcome: 'denied' });
  });

  it('gives the hook its payload on stdin and TOLE_* variables', async () => {
    const h = await startHarness({
      hooks: { preToolUse: 'cat > pre.json; env | grep "^TOLE_" | sort > pre.env', postToolUse: 'cat > post.json' },
      hookEnv: { ...process.env, TOLE_RISK: 'stale-from-parent' },
      replies: [toolCall('read_file', { path: 'a.txt' }, 'call_7'), { text: 'ok' }],
    });
    writeFileSync(path.join(h.root, 'a.txt'), 'alpha\n');
    await h.run('read a.txt');
    const pre = JSON.parse(readFileSync(path.join(h.root, 'pre.json'), 'utf8'));
    expect(pre).toEqual({
      event: 'preToolUse',
      session_id: h.store.header.id,
      cwd: h.root,
      model: 'tole-test-model',
      tool: 'read_file',
      call_id: 'call_7',
      input: { path: 'a.txt' },
      risk: 'ReadOnly',
      subject: 'a.txt',
    });
    const env = readFileSync(path.join(h.root, 'pre.env'), 'utf8').trim().split('\n');
    expect(env).toEqual([
      'TOLE_CALL_ID=call_7',
      `TOLE_CWD=${h.root}`,
      'TOLE_EVENT=preToolUse',
      'TOLE_INPUT={"path":"a.txt"}',
      'TOLE_MODEL=tole-test-model',
      'TOLE_RISK=ReadOnly',
      `TOLE_SESSION_ID=${h.store.header.id}`,
      'TOLE_SUBJECT=a.txt',
      'TOLE_TOOL=read_file',
    ]);
    const post = JSON.parse(readFileSync(path.join(h.root, 'post.json'), 'utf8'));
    expect(post).toMatchObject({
      event: 'postToolUse',
      tool: 'read_file',
      call_id: 'call_7',
      outcome: 'ok',
      output: expect.stringContaining('alpha'),
    });
  });

  it('a postToolUse hook runs after the settlement is committed', async () => {
    const h = await startHarness({
      hooks: { postToolUse: 'echo checked' },
      replies: [toolCall('read_file', { path: 'a.txt' }), { text: 'ok' }],
    });
    writeFileSync(path.join(h.root, 'a.txt'), 'alpha\n');
    await h.run('read');
    const types = h.path().map((e) => (e.type === 'notice' ? `notice:${e.payload.source}` : e.type));
    expect(types).toEqual(['user', 'assistant', 'tool_intent', 'tool_result', 'notice:hook', 'assistant']);
  });

  it('a userPrompt hook that exits 2 keeps the prompt in the transcript, never sends it, and ends the turn', async () => {
    const h = await startHarness({
      hooks: {
        userPrompt: 'if grep -q "sk-live" <<<"$TOLE_PROMPT"; then echo "the prompt holds an API key" >&2; exit 2; fi',
      },
      replies: [{ text: 'second answer' }],
    });
    const blocked = await h.run('deploy with sk-live-123');
    expect(blocked.outcome).toBe('blocked');
    expect(blocked.text).toContain('the prompt holds an API key');
    expect(h.chatRequests()).toHaveLength(0);
    expect(h.pathOf('user')[0]!.payload).toEqual({
      text: 'deploy with sk-live-123',
      blocked: 'the prompt holds an API key',
    });
    expect(machineState(h.store).pc).toBe('Final');

    expect((await h.run('deploy please')).outcome).toBe('done');
    expect(textOf(h.chatRequests()[0]!)).not.toContain('sk-live');
  });

  it('a turnError hook hears about a provider error', async () => {
    const h = await startHarness({
      hooks: { turnError: 'echo "$TOLE_ERROR_KIND" > error.txt' },
      replies: [{ error: { status: 401 } }],
    });
    expect((await h.run('hi')).outcome).toBe('error');
    expect(readFileSync(path.join(h.root, 'error.txt'), 'utf8').trim()).toBe('auth');
    expect(h.pathOf('notice').map((n) => n.payload.source)).toEqual(['provider', 'hook']);
  });

  it('sessionStart hooks run when the host opens the session, and their stdout reaches the model', async () => {
    const h = await startHarness({ hooks: { sessionStart: 'echo "project uses pnpm"' }, replies: [{ text: 'ok' }] });
    const outcome = await h.agent.sessionStart(new AbortController().signal, () => {});
    expect(outcome?.verdict).toBe('ok');
    await h.run('install deps');
    expect(textOf(h.chatRequests()[0]!)).toContain('project uses pnpm');
  });
});
