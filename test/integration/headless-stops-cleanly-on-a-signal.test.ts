/**
 * `tole -p` told to stop (SIGINT, SIGTERM, SIGHUP) while a bash command runs: the command's whole
 * process group is killed, the call is settled as interrupted, and tole exits 128 + the signal.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom, systemClock } from '../../src/core/clock';
import { NS } from '../../src/core/registers/namespaces';
import { SessionStore } from '../../src/core/storage/session-store';
import { startChatServer, type ChatServer } from '../support/chat-server';
import { onlySessionFile, resultsFor, tempDirs, type TempDirs } from '../support/agent-fixtures';
import { liveProcessesInGroup, waitFor } from '../support/process-groups';
import { startBuiltTole } from '../support/built-tole';

let server: ChatServer;
const all: TempDirs[] = [];

beforeAll(async () => {
  server = await startChatServer({ defaultReply: { text: 'not reached' } });
});

afterAll(async () => {
  await server.close();
  for (const d of all) d.remove();
});

describe('tole -p stopped by a signal while a tool runs', () => {
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const) {
    it(`${signal}: the command's process group is gone, the call settled as interrupted, exit ${code}`, async () => {
      const dirs = tempDirs('tole-signal-');
      all.push(dirs);
      const pidFile = join(dirs.root, 'bash.pid');
      server.push({
        toolCalls: [
          { id: 'call_sleep', name: 'bash', arguments: JSON.stringify({ command: 'echo $$ > bash.pid; sleep 30' }) },
        ],
      });
      const home = join(dirs.parent, 'tole-home');
      const tole = startBuiltTole(['-p', 'wait', '--base-url', server.url, '--model', 'm', '--yes'], {
        cwd: dirs.root,
        env: { PATH: process.env.PATH, HOME: dirs.parent, TOLE_HOME: home },
      });

      await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').endsWith('\n'), 'the command to start');
      const pgid = Number(readFileSync(pidFile, 'utf8').trim());
      tole.child.kill(signal);
      const run = await tole.done;

      expect(run.code, run.stderr).toBe(code);
      expect(liveProcessesInGroup(pgid)).toEqual([]);
      const store = SessionStore.open(onlySessionFile(join(home, 'sessions')), {
        clock: systemClock,
        random: seededRandom(8),
        readOnly: true,
      });
      expect(resultsFor(store, 'call_sleep').map((e) => e.payload.outcome)).toEqual(['interrupted']);
      expect(store.registers.entries(NS.pending)).toEqual([]);
      store.close();
    });
  }
});
