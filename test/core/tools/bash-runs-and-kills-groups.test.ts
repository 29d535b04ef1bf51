import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createBashTool } from '../../../src/core/tools/builtin/bash';
import { MODEL_OUTPUT_CAP_BYTES } from '../../../src/core/tools/cap-output';
import { fileAppears } from '../../support/file-appears';
import { eventuallyDead, isAlive } from '../../support/process-groups';
import { tempWorkspace, type TempWorkspace } from './temp-workspace';

const started: number[] = [];

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  for (const pid of started.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

async function childPid(ws: TempWorkspace): Promise<number> {
  const pid = Number((await readFile(path.join(ws.root, 'child.pid'), 'utf8')).trim());
  expect(pid).toBeGreaterThan(1);
  started.push(pid);
  return pid;
}

describe('bash', () => {
  it('declares a per-call risk, is never replayed, and its subject is the command line', async () => {
    const ws = await tempWorkspace();
    const bash = createBashTool({ workspaceRoot: ws.root });
    expect(bash).toMatchObject({ name: 'bash', declaredRisk: 'per-call', replay: 'never', tier: 'warm' });
    expect(bash.subject({ command: 'ls -la' })).toBe('ls -la');
  });

  it('classifies each command line: a recursive rm is Destructive, wrapped or not', async () => {
    const ws = await tempWorkspace();
    const bash = createBashTool({ workspaceRoot: ws.root });
    expect(bash.assess({ command: 'rm -rf build' }).risk).toBe('Destructive');
    expect(bash.assess({ command: 'bash -c "rm -rf build"' }).risk).toBe('Destructive');
    expect(bash.assess({ command: 'some-unknown-tool --flag' }).risk).not.toBe('ReadOnly');
  });

  it('asks the classifier whether a path exists relative to the workspace root', async () => {
    const ws = await tempWorkspace();
    await writeFile(path.join(ws.root, 'notes.txt'), 'keep me');
    const bash = createBashTool({ workspaceRoot: ws.root });
    expect(bash.assess({ command: 'echo x > notes.txt' }).risk).toBe('Destructive');
    expect(bash.assess({ command: 'echo x > fresh.txt' }).risk).toBe('Write');
  });

  it('runs in the workspace root with stdin closed, stdout and stderr interleaved, and reports exit code 0', async () => {
    const ws = await tempWorkspace();
    const bash = createBashTool({ workspaceRoot: ws.root });
    const out = await bash.execute(
      { command: 'pwd; echo to-stderr >&2; cat; echo after-cat; echo e2 >&2; echo o2' },
      ws.ctx,
    );
    expect(out).toEqual({ ok: true, content: `${ws.root}\nto-stderr\nafter-cat\ne2\no2\n[exit code 0]` });
  });

  it('reports a failing exit code as not ok, with the output', async () => {
    const ws = await tempWorkspace();
    const bash = createBashTool({ workspaceRoot: ws.root });
    const out = await bash.execute({ command: 'echo partial; exit 3' }, ws.ctx);
    expect(out).toEqual({ ok: false, content: 'partial\n[exit code 3]' });
    expect(await bash.execute({ command: 'true' }, ws.ctx)).toEqual({
      ok: true,
      content: '(no output)\n[exit code 0]',
    });
  });

  it('on timeout kills the whole process group, background children included, and keeps the partial output', async () => {
    const ws = await tempWorkspace();
    const bash = createBashTool({ workspaceRoot: ws.root, killGraceMs: 500 });
    // The command's timers are held until its background child is started (its pid file is
    // there): the timeout then falls after the set-up however slow the machine, not when 400 ms
    // of a loaded machine happened to be enough for bash to start. Left alone it runs 300 s.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const running = bash.execute(
      { command: 'echo before; sleep 300 & echo $! > child.tmp && mv child.tmp child.pid; sleep 300', timeout_ms: 400 },
      ws.ctx,
    );
    await fileAppears(path.join(ws.root, 'child.pid'));
    vi.advanceTimersByTime(400);
    vi.useRealTimers();
    const out = await running;
    expect(out.ok).toBe(false);
    expect(out.content).toMatch(
      /^before\n\[timed out after 400 ms: the command and every process it started were killed/,
    );
    expect(await eventuallyDead(await childPid(ws))).toBe(true);
  });

  it('sends SIGKILL when the command ignores SIGTERM, once the grace is over', async () => {
    const ws = await tempWorkspace();
    const bash = createBashTool({ workspaceRoot: ws.root, killGraceMs: 300 });
    // bash writes term-1, term-2, ... for each SIGTERM it gets and keeps waiting while its
    // background child lives; the child ignores SIGTERM. Files are written whole and renamed, so
    // each appears complete. The loop ends with the child: killed by a failing run's clean-up, the
    // shell must not spin on a `wait` that returns at once.
    const command =
      "trap 'n=$((n+1)); echo > t.tmp && mv t.tmp term-$n' TERM; (trap '' TERM; sleep 300) & " +
      'echo $$ > bash.pid; echo $! > child.tmp && mv child.tmp child.pid; while kill -0 $! 2>/dev/null; do wait $!; done';
    // The signals tole sends, in order (passed on to the kernel as they come).
    const sent: Array<[number, string | number | undefined]> = [];
    const kill = process.kill.bind(process);
    vi.spyOn(process, 'kill').mockImplementation((pid, signal) => {
      sent.push([pid, signal]);
      return kill(pid, signal);
    });
    // The command's timers are held: the test moves them once the moment they wait for has come.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let settled = false;
    const running = bash.execute({ command, timeout_ms: 300 }, ws.ctx).finally(() => {
      settled = true;
    });
    await fileAppears(path.join(ws.root, 'child.pid'));
    const child = await childPid(ws);
    const shell = Number((await readFile(path.join(ws.root, 'bash.pid'), 'utf8')).trim());
    started.push(-shell); // the whole group, if the test fails before tole ends it
    vi.advanceTimersByTime(300);
    // SIGTERM went to the whole group at the timeout, and the group outlived it.
    expect(sent).toEqual([[-shell, 'SIGTERM']]);
    await fileAppears(path.join(ws.root, 'term-1'));
    expect(settled).toBe(false);
    // One millisecond short of the grace: no SIGKILL yet.
    vi.advanceTimersByTime(299);
    expect(sent).toEqual([[-shell, 'SIGTERM']]);
    // The grace is over: SIGKILL, which no process can ignore, to the whole group.
    vi.advanceTimersByTime(1);
    expect(sent).toEqual([
      [-shell, 'SIGTERM'],
      [-shell, 'SIGKILL'],
    ]);
    vi.useRealTimers();
    const out = await running;
    expect(out.content).toContain('timed out after 300 ms');
    expect(await eventuallyDead(child)).toBe(true);
    expect(await eventuallyDead(shell)).toBe(true);
  });

  it('stops the command and its children when the call is aborted mid-command', async () => {
    const ws = await tempWorkspace();
    const bash = createBashTool({ workspaceRoot: ws.root });
    const { ctx, abort } = ws.abortable();
    // The pid goes to a temp name and is renamed, so that child.pid never appears empty.
    const command = 'echo started; sleep 300 & echo $! > child.tmp && mv child.tmp child.pid; wait';
    const running = bash.execute({ command }, ctx);
    // Mid-command: once the child is started (its pid file is there), not after a fixed wait.
    await fileAppears(path.join(ws.root, 'child.pid'));
    abort();
    const out = await running;
    expect(out.ok).toBe(false);
    expect(out.content).toMatch(
      /^started\n\[interrupted by the user: the command and every process it started were killed/,
    );
    expect(await eventuallyDead(await childPid(ws))).toBe(true);
  });

  it('does not start a command whose call was already aborted', async () => {
    const ws = await tempWorkspace();
    const bash = createBashTool({ workspaceRoot: ws.root });
    const { ctx, abort } = ws.abortable();
    abort();
    const out = await bash.execute({ command: 'touch ran' }, ctx);
    expect(out.ok).toBe(false);
    await expect(readFile(path.join(ws.root, 'ran'))).rejects.toThrow();
  });

  it('stops a command whose abort came while it was being set up (before the spawn)', async () => {
    const ws = await tempWorkspace();
    const bash = createBashTool({ workspaceRoot: ws.root });
    const { ctx, abort } = ws.abortable();
    // execute's first check passes; the abort lands during its set-up, before the process exists.
    const running = bash.execute({ command: 'sleep 300' }, ctx);
    abort();
    const out = await running;
    expect(out.ok).toBe(false);
    expect(out.content).toMatch(/interrupted by the user/);
  });

  it('stops background processes that keep the output open after bash exits, and says how to avoid it', async () => {
    const ws = await tempWorkspace();
    const bash = createBashTool({ workspaceRoot: ws.root, lingerMs: 200 });
    const out = await bash.execute({ command: 'sleep 300 & echo $! > child.pid; echo done' }, ws.ctx);
    expect(out.ok).toBe(true);
    expect(out.content).toContain('done\n[exit code 0. Background processes kept the output open');
    expect(await eventuallyDead(await childPid(ws))).toBe(true);
  });

  it('leaves a background process with redirected output running', async () => {
    const ws = await tempWorkspace();
    const bash = createBashTool({ workspaceRoot: ws.root, lingerMs: 200 });
    const out = await bash.execute({ command: 'sleep 300 > /dev/null 2>&1 & echo $! > child.pid' }, ws.ctx);
    expect(out).toEqual({ ok: true, content: '(no output)\n[exit code 0]' });
    expect(isAlive(await childPid(ws))).toBe(true);
  });

  it('caps large output at 32 KiB with head, tail and the elision marker', async () => {
    const ws = await tempWorkspace();
    const bash = createBashTool({ workspaceRoot: ws.root });
    const out = await bash.execute({ command: 'seq 1 300000' }, ws.ctx);
    expect(out.ok).toBe(true);
    expect(Buffer.byteLength(out.content)).toBeLessThanOrEqual(MODEL_OUTPUT_CAP_BYTES + 40);
    expect(out.content.startsWith('1\n2\n3\n')).toBe(true);
    expect(out.content.endsWith('299999\n300000\n[exit code 0]')).toBe(true);
    const marker = out.content.match(/\n\[\.\.\. ([\d.]+ [KM]B) elided: ([\d,]+) lines \.\.\.\]\n/);
    expect(marker).not.toBeNull();
    const shown = out.content.split('\n').filter((line) => /^\d+$/.test(line)).length;
    expect(shown + Number(marker?.[2].replace(/,/g, ''))).toBe(300_000);
  });

  it('keeps memory bounded for output beyond the capture limit and still counts every line', async () => {
    const ws = await tempWorkspace();
    const bash = createBashTool({ workspaceRoot: ws.root });
    const out = await bash.execute({ command: 'yes abcdefghi | head -n 2000000' }, ws.ctx); // 20 MB
    const marker = out.content.match(/\[\.\.\. ([\d.]+ MB) elided: ([\d,]+) lines \.\.\.\]/);
    expect(marker?.[1]).toMatch(/^(19\.9|20\.0) MB$/);
    const shown = out.content.split('\n').filter((line) => line === 'abcdefghi').length;
    expect(shown + Number(marker?.[2].replace(/,/g, ''))).toBe(2_000_000);
  });

  it('reports a command that cannot run as a result', async () => {
    const ws = await tempWorkspace();
    const bash = createBashTool({ workspaceRoot: ws.root });
    const out = await bash.execute({ command: 'definitely-not-a-command-xyz' }, ws.ctx);
    expect(out.ok).toBe(false);
    expect(out.content).toMatch(/command not found\n\[exit code 127\]$/);
  });
});
