import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { HooksConfig } from '../../../src/core/hooks/hook-config';
import { HookRunner, hookNotice } from '../../../src/core/hooks/hook-runner';
import { WRITE_FILE_PRE_TOOL_USE } from '../../support/hook-payloads';
import { HOOK_OUTPUT_MAX_BYTES } from '../../../src/core/hooks/run-hook-command';
import { fileAppears } from '../../support/file-appears';
import { eventuallyDead } from '../../support/process-groups';
import { killLater, tempRoot } from './agent-harness';

const payload = WRITE_FILE_PRE_TOOL_USE;

function runner(config: HooksConfig, root = tempRoot().root): HookRunner {
  return HookRunner.create({ config, cwd: root, env: { ...process.env, TOLE_TOOL: 'stale' }, lingerMs: 100 });
}

describe('hook runner', () => {
  it('exit 0 is ok, exit 2 blocks with stderr as the reason, any other exit only warns', async () => {
    const ok = await runner({ preToolUse: 'echo fine' }).run(payload, { failClosed: true });
    expect(ok).toMatchObject({ verdict: 'ok', blockReason: null });
    expect(ok.runs[0]).toMatchObject({ exitCode: 0, stdout: 'fine\n', failure: null });

    const blocked = await runner({ preToolUse: 'echo out; echo "not in prod" >&2; exit 2' }).run(payload, {
      failClosed: false,
    });
    expect(blocked).toMatchObject({ verdict: 'block', blockReason: 'not in prod' });

    const warned = await runner({ preToolUse: 'echo odd >&2; exit 3' }).run(payload, { failClosed: true });
    expect(warned.verdict).toBe('warn');
    expect(hookNotice(warned.runs[0]!)).toMatchObject({
      level: 'warn',
      source: 'hook',
      text: expect.stringContaining('exit 3: odd'),
    });
  });

  it('runs the commands of one event in order and stops at the first that blocks', async () => {
    const { root } = tempRoot();
    const hooks = runner(
      { preToolUse: ['echo one >> order.txt', 'echo two >> order.txt; exit 2', 'echo three >> order.txt'] },
      root,
    );
    const outcome = await hooks.run(payload, { failClosed: false });
    expect(outcome.verdict).toBe('block');
    expect(outcome.runs.map((r) => r.exitCode)).toEqual([0, 2]);
    expect(readFileSync(path.join(root, 'order.txt'), 'utf8')).toBe('one\ntwo\n');
  });

  it('a hook killed by a signal blocks when failing closed and only warns otherwise', async () => {
    const crash = 'kill -9 $$';
    const closed = await runner({ preToolUse: crash }).run(payload, { failClosed: true });
    expect(closed.verdict).toBe('block');
    expect(closed.blockReason).toContain('SIGKILL');
    const open = await runner({ preToolUse: crash }).run(payload, { failClosed: false });
    expect(open.verdict).toBe('warn');
  });

  it('a hook that cannot start blocks when failing closed', async () => {
    const hooks = HookRunner.create({ config: { preToolUse: 'true' }, cwd: '/nonexistent/tole-hook-dir' });
    const outcome = await hooks.run(payload, { failClosed: true });
    expect(outcome.verdict).toBe('block');
    expect(outcome.runs[0]!.failure).toMatch(/could not start/);
  });

  it('kills the whole process group on timeout, a child in the background too', async () => {
    const { root } = tempRoot();
    const hooks = runner({ timeoutMs: 300, preToolUse: 'sleep 30 & echo $! > bg.tmp && mv bg.tmp bg.pid; wait' }, root);
    // The hook's timers are held until its background child is started (its pid file is there):
    // the timeout then falls after the set-up however slow the machine is.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const running = hooks.run(payload, { failClosed: true });
      await fileAppears(path.join(root, 'bg.pid'));
      vi.advanceTimersByTime(300);
      vi.useRealTimers();
      const outcome = await running;
      expect(outcome.verdict).toBe('block');
      expect(outcome.runs[0]!.failure).toMatch(/timed out after 300 ms/);
    } finally {
      vi.useRealTimers();
    }
    const pid = Number(readFileSync(path.join(root, 'bg.pid'), 'utf8').trim());
    killLater(pid);
    expect(await eventuallyDead(pid)).toBe(true);
  });

  it('keeps a bounded part of a flood of output', async () => {
    const outcome = await runner({ preToolUse: 'head -c 1000000 /dev/zero | tr "\\0" x' }).run(payload, {
      failClosed: false,
    });
    const { stdout } = outcome.runs[0]!;
    expect(stdout.length).toBeLessThan(HOOK_OUTPUT_MAX_BYTES + 100);
    expect(stdout).toMatch(/more bytes dropped/);
  });

  it('passes the payload on stdin and as TOLE_* variables, never an inherited TOLE_* one', async () => {
    const { root } = tempRoot();
    const hooks = runner({ userPrompt: 'cat > payload.json; env | grep "^TOLE_" | sort > env.txt' }, root);
    await hooks.run(
      { event: 'userPrompt', session_id: 's-9', cwd: root, model: 'm', prompt: 'hello there' },
      { failClosed: false },
    );
    expect(JSON.parse(readFileSync(path.join(root, 'payload.json'), 'utf8'))).toEqual({
      event: 'userPrompt',
      session_id: 's-9',
      cwd: root,
      model: 'm',
      prompt: 'hello there',
    });
    expect(readFileSync(path.join(root, 'env.txt'), 'utf8').trim().split('\n')).toEqual([
      `TOLE_CWD=${root}`,
      'TOLE_EVENT=userPrompt',
      'TOLE_MODEL=m',
      'TOLE_PROMPT=hello there',
      'TOLE_SESSION_ID=s-9',
    ]);
  });

  it('no event without commands runs anything', async () => {
    const hooks = runner({ preToolUse: 'exit 2' });
    expect(hooks.has('postToolUse')).toBe(false);
    expect((await hooks.run({ ...payload, event: 'postToolUse' }, { failClosed: true })).runs).toEqual([]);
  });
});
