/**
 * The CLI's own fault hook: `TOLE_CRASH_AT=... tole -p` SIGKILLs itself inside a built-in tool call;
 * `tole -p ... --resume ID` then settles the call exactly once and carries on.
 */
import { existsSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seededRandom, systemClock } from '../../src/core/clock';
import { SessionStore } from '../../src/core/storage/session-store';
import type { ScriptedReply } from '../support/chat-server';
import { chatRequests, onlySessionFile, resultsFor } from '../support/agent-fixtures';
import { builtToleDirs, crashFixture } from '../support/crash-fixture';
import { untilFolderAtRest } from '../support/folder-at-rest';
import { waitFor } from '../support/process-groups';
import { runBuiltTole, startBuiltTole } from '../support/built-tole';

const crash = crashFixture({ defaultReply: { text: 'carried on' } });

function results(path: string, callId: string): { outcome: string; content: string }[] {
  const store = SessionStore.open(path, { clock: systemClock, random: seededRandom(3), readOnly: true });
  try {
    return resultsFor(store, callId).map((e) => ({ outcome: e.payload.outcome, content: e.payload.content }));
  } finally {
    store.close();
  }
}

describe('tole -p --resume after a SIGKILL inside a tool call', () => {
  it('a guarded write_file killed during its effect is settled once, and the file holds the content once', async () => {
    const { dirs, env, sessions } = builtToleDirs('tole-headless-crash-');
    // The resume makes the new file only once its guard can prove the crash came first: the folder unchanged since at rest.
    await untilFolderAtRest(dirs.root);
    const write: ScriptedReply = {
      toolCalls: [{ id: 'call_w', name: 'write_file', arguments: '{"path":"out.txt","content":"exactly once\\n"}' }],
    };
    crash.server.push(write);
    const crashed = await runBuiltTole(
      ['-p', 'write it', '--base-url', crash.server.url, '--model', 'm', '--allow', 'write_file:*'],
      { cwd: dirs.root, env: { ...env, TOLE_CRASH_AT: 'during-effect' } },
    );
    expect(crashed.signal, crashed.stderr).toBe('SIGKILL');
    const path = onlySessionFile(sessions);
    expect(results(path, 'call_w')).toEqual([]);

    const id = path
      .split('/')
      .at(-1)!
      .replace(/\.jsonl$/, '');
    const resumed = await runBuiltTole(
      ['-p', 'go on', '--resume', id, '--base-url', crash.server.url, '--model', 'm', '--allow', 'write_file:*'],
      { cwd: dirs.root, env },
    );

    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toBe('carried on\n');
    expect(readFileSync(join(dirs.root, 'out.txt'), 'utf8')).toBe('exactly once\n');
    expect(results(path, 'call_w')).toEqual([{ outcome: 'ok', content: expect.any(String) }]);
    const check = await runBuiltTole(['check', path], { cwd: dirs.root, env });
    expect(check.code, check.stdout).toBe(0);
  });

  it('a new file written and then deleted by the user before the resume is not made again; the user is told to check it', async () => {
    const { dirs, env, sessions } = builtToleDirs('tole-headless-crash-');
    crash.server.push({
      toolCalls: [{ id: 'call_n', name: 'write_file', arguments: '{"path":"new.txt","content":"made once\\n"}' }],
    });
    const crashed = await runBuiltTole(
      ['-p', 'write it', '--base-url', crash.server.url, '--model', 'm', '--allow', 'write_file:*'],
      { cwd: dirs.root, env: { ...env, TOLE_CRASH_AT: 'before-settlement' } },
    );
    expect(crashed.signal, crashed.stderr).toBe('SIGKILL');
    expect(readFileSync(join(dirs.root, 'new.txt'), 'utf8')).toBe('made once\n');
    unlinkSync(join(dirs.root, 'new.txt'));
    const path = onlySessionFile(sessions);

    const resumed = await runBuiltTole(
      ['-p', 'go on', '--resume', path, '--base-url', crash.server.url, '--model', 'm', '--allow', 'write_file:*'],
      { cwd: dirs.root, env },
    );

    expect(resumed.code, resumed.stderr).toBe(0);
    expect(existsSync(join(dirs.root, 'new.txt'))).toBe(false);
    expect(results(path, 'call_n')).toEqual([
      { outcome: 'interrupted', content: expect.stringContaining('outcome unknown') },
    ]);
    expect(resumed.stderr).toMatch(
      /tole: write_file interrupted: interrupted: outcome unknown\..*Check whether new\.txt should exist and write it again if so/,
    );
  });

  it("resumed from another directory, the pending write runs in the session's own workspace, not the current one", async () => {
    const { dirs, env, sessions } = builtToleDirs('tole-headless-crash-');
    // The resume makes the new file only once its guard can prove the crash came first: the folder unchanged since at rest.
    await untilFolderAtRest(dirs.root);
    const write: ScriptedReply = {
      toolCalls: [
        { id: 'call_w', name: 'write_file', arguments: '{"path":"out.txt","content":"in the session workspace\\n"}' },
      ],
    };
    crash.server.push(write);
    const crashed = await runBuiltTole(
      ['-p', 'write it', '--base-url', crash.server.url, '--model', 'm', '--allow', 'write_file:*'],
      { cwd: dirs.root, env: { ...env, TOLE_CRASH_AT: 'after-intent' } },
    );
    expect(crashed.signal, crashed.stderr).toBe('SIGKILL');
    const path = onlySessionFile(sessions);

    const resumed = await runBuiltTole(
      ['-p', 'go on', '--resume', path, '--base-url', crash.server.url, '--model', 'm', '--allow', 'write_file:*'],
      { cwd: dirs.outside, env },
    );

    expect(resumed.code, resumed.stderr).toBe(0);
    expect(existsSync(join(dirs.outside, 'out.txt'))).toBe(false);
    expect(readFileSync(join(dirs.root, 'out.txt'), 'utf8')).toBe('in the session workspace\n');
    expect(results(path, 'call_w')).toEqual([{ outcome: 'ok', content: expect.any(String) }]);
    expect(resumed.stderr).toContain(dirs.root);
  });

  it('killed while the model was answering: the prompt survives, the stale lock is taken over, the next turn goes on', async () => {
    const { dirs, env, sessions } = builtToleDirs('tole-headless-crash-');
    const before = chatRequests(crash.server).length;
    crash.server.push({ hangMs: 30_000 });
    const tole = startBuiltTole(['-p', 'first prompt', '--base-url', crash.server.url, '--model', 'm'], {
      cwd: dirs.root,
      env,
    });
    await waitFor(() => chatRequests(crash.server).length > before, 'the model call');
    tole.child.kill('SIGKILL');
    expect((await tole.done).signal).toBe('SIGKILL');
    const path = onlySessionFile(sessions);

    const resumed = await runBuiltTole(
      ['-p', 'second prompt', '--resume', path, '--base-url', crash.server.url, '--model', 'm'],
      {
        cwd: dirs.root,
        env,
      },
    );

    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toBe('carried on\n');
    const users = (chatRequests(crash.server).at(-1)?.body?.messages ?? [])
      .filter((m) => m.role === 'user')
      .map((m) => m.content);
    expect(users).toEqual(['first prompt', 'second prompt']);
  });

  it('a bash call (never replayed) killed before its settlement is settled as outcome unknown, not run again', async () => {
    const { dirs, env, sessions } = builtToleDirs('tole-headless-crash-');
    writeFileSync(join(dirs.root, 'count.txt'), '');
    const bash: ScriptedReply = {
      toolCalls: [{ id: 'call_b', name: 'bash', arguments: '{"command":"echo run >> count.txt"}' }],
    };
    crash.server.push(bash);
    const crashed = await runBuiltTole(
      ['-p', 'count', '--base-url', crash.server.url, '--model', 'm', '--allow', 'bash:echo run >> count.txt'],
      { cwd: dirs.root, env: { ...env, TOLE_CRASH_AT: 'before-settlement' } },
    );
    expect(crashed.signal, crashed.stderr).toBe('SIGKILL');
    expect(readFileSync(join(dirs.root, 'count.txt'), 'utf8')).toBe('run\n');
    const path = onlySessionFile(sessions);

    const resumed = await runBuiltTole(
      [
        '-p',
        'go on',
        '--resume',
        path,
        '--base-url',
        crash.server.url,
        '--model',
        'm',
        '--allow',
        'bash:echo run >> count.txt',
      ],
      { cwd: dirs.root, env },
    );

    expect(resumed.code, resumed.stderr).toBe(0);
    expect(readFileSync(join(dirs.root, 'count.txt'), 'utf8')).toBe('run\n');
    expect(results(path, 'call_b')).toEqual([
      { outcome: 'interrupted', content: expect.stringMatching(/outcome unknown/) },
    ]);
    const lastRequest = chatRequests(crash.server).at(-1)?.body?.messages ?? [];
    expect(lastRequest.filter((m) => m.role === 'tool' && m['tool_call_id'] === 'call_b')).toHaveLength(1);
  });
});
