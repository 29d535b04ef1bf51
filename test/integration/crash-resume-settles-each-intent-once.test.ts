/**
 * Tier B: a child process runs a real turn against the local chat server and SIGKILLs itself at
 * one point of the effect sandwich (TOLE_CRASH_AT, the CLI's own fault hook). The parent reopens
 * the session, resumes it with the same tools, and counts how often the effect really ran (one
 * marker line per run) and how many settlements the file holds for the call.
 */
import { describe, expect, it } from 'vitest';
import type { ApprovalRequest, Approver } from '../../src/core/approval/approver';
import { machineState } from '../../src/core/machine/machine';
import { NS } from '../../src/core/registers/namespaces';
import type { FaultPoint } from '../../src/core/session/agent-deps';
import { SessionStore } from '../../src/core/storage/session-store';
import { seededRandom, systemClock } from '../../src/core/clock';
import type { RecordedRequest } from '../support/chat-server';
import {
  buildAgent,
  chatRequests,
  entriesOfType,
  eventLog,
  markerCount,
  markerTools,
  onlySessionFile,
  resultsFor,
  tempDirs,
  type MarkerToolName,
  type TempDirs,
} from '../support/agent-fixtures';
import { crashFixture } from '../support/crash-fixture';

const CALL_ID = 'call_marker';
const KEY = 'k1';

const crash = crashFixture({ defaultReply: { text: 'continued' } });

/** Runs the child turn (one marker call, then an answer) until the fault point kills it. */
async function crashChild(
  tool: MarkerToolName,
  crashAt: FaultPoint,
  interactive = false,
): Promise<{ dirs: TempDirs; path: string }> {
  const dirs = tempDirs('tole-crash-');
  crash.server.push({ toolCalls: [{ id: CALL_ID, name: tool, arguments: JSON.stringify({ key: KEY }) }] });
  const run = await crash.crashTurn(
    {
      sessionsDir: dirs.sessions,
      workspaceRoot: dirs.root,
      prompt: `run ${tool}`,
      interactive,
      checkpointHome: dirs.home,
    },
    crashAt,
  );
  expect(run.stdout).not.toContain('turn ');
  return { dirs, path: onlySessionFile(dirs.sessions) };
}

/** Settlements and intents for the marker call, read from the file by a fresh read-only open. */
function onDisk(path: string): {
  intents: number;
  settlements: number;
  pending: number;
  outcomes: string[];
  checkpoints: number;
} {
  const store = SessionStore.open(path, { clock: systemClock, random: seededRandom(7), readOnly: true });
  try {
    const results = resultsFor(store, CALL_ID);
    return {
      intents: entriesOfType(store, 'tool_intent').filter((e) => e.payload.callId === CALL_ID).length,
      settlements: results.length,
      pending: store.registers.entries(NS.pending).length,
      outcomes: results.map((e) => e.payload.outcome),
      checkpoints: [...entriesOfType(store, 'tool_intent'), ...entriesOfType(store, 'approval')].filter(
        (e) => e.payload.checkpoint !== undefined,
      ).length,
    };
  } finally {
    store.close();
  }
}

function toolMessagesFor(request: RecordedRequest | undefined, callId: string): string[] {
  return (request?.body?.messages ?? [])
    .filter((m) => m.role === 'tool' && m['tool_call_id'] === callId)
    .map((m) => String(m.content));
}

/** The points of the matrix: the checkpoint's own point, then the three of the sandwich. */
type MatrixPoint = Extract<FaultPoint, 'after-checkpoint' | 'after-intent' | 'during-effect' | 'before-settlement'>;

/**
 * Effect runs expected after the resume, by replay class and crash point. `after-checkpoint` is
 * crashed with an interactive child: the checkpoint was taken after the user's approval and the
 * process died before the approval line named it, so no approval is committed: the call is
 * asked again, and with no approver on resume it is denied, never run.
 */
const EXPECTED: Record<MarkerToolName, Record<MatrixPoint, { runs: number | 'at-least-1'; outcome: string }>> = {
  // Runs again on resume: at least once in all, whatever the crash point.
  marker_idempotent: {
    'after-checkpoint': { runs: 0, outcome: 'denied' },
    'after-intent': { runs: 'at-least-1', outcome: 'ok' },
    'during-effect': { runs: 'at-least-1', outcome: 'ok' },
    'before-settlement': { runs: 'at-least-1', outcome: 'ok' },
  },
  // The guard finds the effect or runs it: exactly once.
  marker_guarded: {
    'after-checkpoint': { runs: 0, outcome: 'denied' },
    'after-intent': { runs: 1, outcome: 'ok' },
    'during-effect': { runs: 1, outcome: 'ok' },
    'before-settlement': { runs: 1, outcome: 'ok' },
  },
  // Never run twice: 0 when the crash came before the effect started, 1 once it had run.
  marker_never: {
    'after-checkpoint': { runs: 0, outcome: 'denied' },
    'after-intent': { runs: 0, outcome: 'interrupted' },
    'during-effect': { runs: 1, outcome: 'interrupted' },
    'before-settlement': { runs: 1, outcome: 'interrupted' },
  },
};

describe('a SIGKILL at any point of the effect sandwich resumes to exactly one settlement', () => {
  for (const tool of ['marker_idempotent', 'marker_guarded', 'marker_never'] as const) {
    for (const crashAt of ['after-checkpoint', 'after-intent', 'during-effect', 'before-settlement'] as const) {
      // Before any approval is committed the replay class plays no part: one class covers it.
      if (crashAt === 'after-checkpoint' && tool !== 'marker_never') continue;
      it(`${tool}, killed ${crashAt}`, async () => {
        const { dirs, path } = await crashChild(tool, crashAt, crashAt === 'after-checkpoint');
        const runsBeforeResume = markerCount(dirs.root, tool, KEY);
        expect(runsBeforeResume).toBe(crashAt === 'after-intent' || crashAt === 'after-checkpoint' ? 0 : 1);
        // The checkpoint is named in the intent's line; after-checkpoint died before any line named it.
        expect(onDisk(path)).toMatchObject({
          intents: 1,
          settlements: 0,
          pending: 1,
          checkpoints: crashAt === 'after-checkpoint' ? 0 : 1,
        });

        const { agent, store } = buildAgent({
          baseURL: crash.server.url,
          sessionsDir: dirs.sessions,
          workspaceRoot: dirs.root,
          sessionPath: path,
          extraTools: markerTools(),
          policy: { rules: [tool] },
        });
        const log = eventLog();
        expect(await agent.resume(new AbortController().signal, log.emit)).toBe(1);
        const requestsBefore = chatRequests(crash.server).length;
        const next = await agent.runTurn('go on', new AbortController().signal, () => {});
        store.close();

        const expected = EXPECTED[tool][crashAt];
        const runs = markerCount(dirs.root, tool, KEY);
        if (expected.runs === 'at-least-1') expect(runs).toBeGreaterThanOrEqual(1);
        else expect(runs).toBe(expected.runs);
        const disk = onDisk(path);
        expect(disk).toMatchObject({ intents: 1, settlements: 1, pending: 0, outcomes: [expected.outcome] });
        expect(next).toEqual({ outcome: 'done', text: 'continued' });
        // The model reads exactly one result for the call.
        expect(chatRequests(crash.server).length).toBe(requestsBefore + 1);
        expect(toolMessagesFor(chatRequests(crash.server).at(-1), CALL_ID)).toHaveLength(1);

        // A second resume finds nothing left to do, and runs nothing again.
        const again = buildAgent({
          baseURL: crash.server.url,
          sessionsDir: dirs.sessions,
          workspaceRoot: dirs.root,
          sessionPath: path,
          extraTools: markerTools(),
          policy: { rules: [tool] },
        });
        expect(await again.agent.resume(new AbortController().signal, () => {})).toBe(0);
        expect(machineState(again.store).pc).toBe('Final');
        again.store.close();
        expect(markerCount(dirs.root, tool, KEY)).toBe(runs);
      });
    }
  }
});

describe('a call that needed approval and has none committed never runs unapproved on resume', () => {
  it('is denied headless: settled, effect 0', async () => {
    const { dirs, path } = await crashChild('marker_idempotent', 'after-intent', true);
    expect(onDisk(path)).toMatchObject({ intents: 1, settlements: 0, pending: 1 });

    const { agent, store } = buildAgent({
      baseURL: crash.server.url,
      sessionsDir: dirs.sessions,
      workspaceRoot: dirs.root,
      sessionPath: path,
      extraTools: markerTools(),
      approver: null,
    });
    await agent.resume(new AbortController().signal, () => {});
    const [settled] = resultsFor(store, CALL_ID);
    store.close();

    expect(markerCount(dirs.root, 'marker_idempotent')).toBe(0);
    expect(onDisk(path)).toEqual({ intents: 1, settlements: 1, pending: 0, outcomes: ['denied'], checkpoints: 0 });
    expect(settled!.payload.content).toMatch(/approv/);
  });

  it('is asked again when an approver is wired, and runs once when approved', async () => {
    const { dirs, path } = await crashChild('marker_idempotent', 'after-intent', true);
    const asked: ApprovalRequest[] = [];
    const approver: Approver = {
      decide: async (request) => {
        asked.push(request);
        return { approved: true, by: 'user' };
      },
    };

    const { agent, store } = buildAgent({
      baseURL: crash.server.url,
      sessionsDir: dirs.sessions,
      workspaceRoot: dirs.root,
      sessionPath: path,
      extraTools: markerTools(),
      approver,
      checkpointHome: dirs.home,
    });
    await agent.resume(new AbortController().signal, () => {});
    const approvals = entriesOfType(store, 'approval');
    store.close();

    expect(asked.map((r) => [r.callId, r.tool, r.risk])).toEqual([[CALL_ID, 'marker_idempotent', 'Write']]);
    expect(approvals.map((e) => e.payload.decision)).toEqual([{ approved: true, by: 'user' }]);
    expect(approvals[0]!.payload.checkpoint).toMatch(/^[0-9a-f]{40}$/);
    expect(markerCount(dirs.root, 'marker_idempotent')).toBe(1);
    // Approved on resume: the checkpoint is taken then, and named in the approval's line.
    expect(onDisk(path)).toEqual({ intents: 1, settlements: 1, pending: 0, outcomes: ['ok'], checkpoints: 1 });
  });

  it('is asked again and not run when the user denies it', async () => {
    const { dirs, path } = await crashChild('marker_never', 'after-intent', true);
    const approver: Approver = { decide: async () => ({ approved: false, by: 'user', reason: 'not now' }) };

    const { agent, store } = buildAgent({
      baseURL: crash.server.url,
      sessionsDir: dirs.sessions,
      workspaceRoot: dirs.root,
      sessionPath: path,
      extraTools: markerTools(),
      approver,
    });
    await agent.resume(new AbortController().signal, () => {});
    store.close();

    expect(markerCount(dirs.root, 'marker_never')).toBe(0);
    expect(onDisk(path)).toEqual({ intents: 1, settlements: 1, pending: 0, outcomes: ['denied'], checkpoints: 0 });
  });
});
