/**
 * Tier B: a child process runs the user's `!command` (Agent.runShell: the bash tool's own call
 * path, its intent marked as the user's) and SIGKILLs itself at one point of the effect sandwich
 * (TOLE_CRASH_AT). The parent resumes the session: the command is settled once, as "outcome
 * unknown", and never run again, whatever the point (bash is never replayed).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seededRandom, systemClock } from '../../src/core/clock';
import { NS } from '../../src/core/registers/namespaces';
import type { FaultPoint } from '../../src/core/session/agent-deps';
import { NEVER_REPLAY_TEXT } from '../../src/core/session/resume';
import { SessionStore } from '../../src/core/storage/session-store';
import { buildAgent, entriesOfType, onlySessionFile, tempDirs } from '../support/agent-fixtures';
import { crashFixture } from '../support/crash-fixture';

const COMMAND = 'echo ran >> shell.log';

const crash = crashFixture({ defaultReply: { text: 'continued' } });

const runs = (root: string): number =>
  existsSync(join(root, 'shell.log'))
    ? readFileSync(join(root, 'shell.log'), 'utf8').split('\n').filter(Boolean).length
    : 0;

function onDisk(path: string) {
  const store = SessionStore.open(path, { clock: systemClock, random: seededRandom(7), readOnly: true });
  try {
    return {
      intents: entriesOfType(store, 'tool_intent').map((e) => ({ by: e.payload.by, subject: e.payload.subject })),
      outcomes: entriesOfType(store, 'tool_result').map((e) => e.payload.outcome),
      contents: entriesOfType(store, 'tool_result').map((e) => e.payload.content),
      pending: store.registers.entries(NS.pending).length,
    };
  } finally {
    store.close();
  }
}

describe('a SIGKILL in the middle of a !command', () => {
  for (const crashAt of ['after-intent', 'during-effect', 'before-settlement'] as const satisfies FaultPoint[]) {
    it(`killed ${crashAt}: resumed to one "outcome unknown", never run again`, async () => {
      const dirs = tempDirs('tole-bang-crash-');
      await crash.crashTurn(
        {
          sessionsDir: dirs.sessions,
          workspaceRoot: dirs.root,
          prompt: '',
          interactive: false,
          rules: [`bash:${COMMAND}`],
          shell: COMMAND,
        },
        crashAt,
      );
      const path = onlySessionFile(dirs.sessions);
      expect(onDisk(path)).toMatchObject({ intents: [{ by: 'user', subject: COMMAND }], outcomes: [], pending: 1 });
      const before = runs(dirs.root);
      // Killed before the spawn nothing ran; after the spawn the shell may have finished on its own.
      if (crashAt === 'after-intent') expect(before).toBe(0);
      if (crashAt === 'before-settlement') expect(before).toBe(1);

      const { agent, store } = buildAgent({
        baseURL: crash.server.url,
        sessionsDir: dirs.sessions,
        workspaceRoot: dirs.root,
        sessionPath: path,
        policy: { rules: [`bash:${COMMAND}`] },
      });
      expect(await agent.resume(new AbortController().signal, () => {})).toBe(1);
      store.close();

      expect(runs(dirs.root)).toBe(before);
      expect(onDisk(path)).toMatchObject({ outcomes: ['interrupted'], contents: [NEVER_REPLAY_TEXT], pending: 0 });
    });
  }
});
