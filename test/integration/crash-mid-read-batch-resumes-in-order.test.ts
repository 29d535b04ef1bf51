/**
 * Tier B for calls that run side by side: a child process runs a real turn whose one reply asks
 * for three ReadOnly marker reads, and SIGKILLs itself (TOLE_CRASH_AT, the CLI's fault hook)
 * between the batch's intents and its settlements. The parent reopens the session and resumes
 * it: each read is settled once, in the calls' order, by its replay class (idempotent: run
 * again). A crash between two settlements of the batch is the in-process case at the end.
 */
import { describe, expect, it } from 'vitest';
import { seededRandom, systemClock } from '../../src/core/clock';
import { machineState } from '../../src/core/machine/machine';
import { NS } from '../../src/core/registers/namespaces';
import type { FaultPoint } from '../../src/core/session/agent-deps';
import { SessionStore } from '../../src/core/storage/session-store';
import {
  buildAgent,
  chatRequests,
  entriesOf,
  markerCount,
  onlySessionFile,
  readMarkerTool,
  tempDirs,
  type TempDirs,
} from '../support/agent-fixtures';
import { crashFixture } from '../support/crash-fixture';

const KEYS = ['a', 'b', 'c'] as const;

const crash = crashFixture({ defaultReply: { text: 'continued' } });

function pushBatch(): void {
  crash.server.push({
    toolCalls: KEYS.map((key) => ({ id: `call_${key}`, name: 'marker_read', arguments: JSON.stringify({ key }) })),
  });
}

/** The tool records of the file in order, as `type callId [outcome]`. */
function onDisk(path: string): { records: string[]; pending: number; pc: string } {
  const store = SessionStore.open(path, { clock: systemClock, random: seededRandom(11), readOnly: true });
  try {
    const records: string[] = [];
    for (const entry of entriesOf(store)) {
      if (entry.type === 'tool_intent') records.push(`intent ${entry.payload.callId}`);
      if (entry.type === 'tool_result')
        records.push(
          `result ${entry.payload.callId} ${entry.payload.outcome}${entry.payload.resumedBy ? ` ${entry.payload.resumedBy}` : ''}`,
        );
    }
    return { records, pending: store.registers.entries(NS.pending).length, pc: machineState(store).pc };
  } finally {
    store.close();
  }
}

const INTENTS = KEYS.map((key) => `intent call_${key}`);

function runs(root: string): number[] {
  return KEYS.map((key) => markerCount(root, 'marker_read', key));
}

function resumeHere(dirs: TempDirs, path: string) {
  return buildAgent({
    baseURL: crash.server.url,
    sessionsDir: dirs.sessions,
    workspaceRoot: dirs.root,
    sessionPath: path,
    extraTools: [readMarkerTool()],
  });
}

describe('a SIGKILL between the intents and the settlements of a read batch resumes each read once, in order', () => {
  for (const crashAt of ['after-intent', 'during-effect', 'before-settlement'] as const) {
    it(`killed ${crashAt}`, async () => {
      const dirs = tempDirs('tole-crash-batch-');
      pushBatch();
      await crash.crashTurn(
        {
          sessionsDir: dirs.sessions,
          workspaceRoot: dirs.root,
          prompt: 'read a, b and c',
          interactive: false,
        },
        crashAt,
      );
      const path = onlySessionFile(dirs.sessions);

      // Every intent of the batch is in the file before any effect; no settlement is.
      expect(onDisk(path)).toEqual({ records: INTENTS, pending: 3, pc: 'Executing' });
      // after-intent: nothing ran. during-effect: the first read had started (its marker is written
      // at once) and the others not. before-settlement: the first read ran (the kill came before its settlement).
      const before = runs(dirs.root);
      if (crashAt === 'after-intent') expect(before).toEqual([0, 0, 0]);
      else if (crashAt === 'during-effect') expect(before).toEqual([1, 0, 0]);
      else expect(before[0]).toBe(1);

      const { agent, store } = resumeHere(dirs, path);
      expect(await agent.resume(new AbortController().signal, () => {})).toBe(3);
      const requestsBefore = chatRequests(crash.server).length;
      const next = await agent.runTurn('go on', new AbortController().signal, () => {});
      store.close();

      expect(next).toEqual({ outcome: 'done', text: 'continued' });
      const after = runs(dirs.root);
      after.forEach((count, i) => expect(count).toBe(before[i]! + 1));
      const disk = onDisk(path);
      expect(disk.records).toEqual([
        ...INTENTS,
        'result call_a ok rerun',
        'result call_b ok rerun',
        'result call_c ok rerun',
      ]);
      expect(disk.pending).toBe(0);
      // The model reads each result once, in the order it asked.
      expect(chatRequests(crash.server).length).toBe(requestsBefore + 1);
      const toolIds = (chatRequests(crash.server).at(-1)?.body?.messages ?? [])
        .filter((m) => m.role === 'tool')
        .map((m) => String(m['tool_call_id']));
      expect(toolIds).toEqual(['call_a', 'call_b', 'call_c']);

      // A second resume finds nothing to do.
      const again = resumeHere(dirs, path);
      expect(await again.agent.resume(new AbortController().signal, () => {})).toBe(0);
      again.store.close();
      expect(runs(dirs.root)).toEqual(after);
    });
  }

  it('a batch with a ReadOnly bash call: each resumes by its own replay class (bash is never run twice)', async () => {
    const dirs = tempDirs('tole-crash-batch-');
    crash.server.push({
      toolCalls: [
        { id: 'call_a', name: 'marker_read', arguments: JSON.stringify({ key: 'a' }) },
        { id: 'call_sh', name: 'bash', arguments: JSON.stringify({ command: 'echo hi' }) },
        { id: 'call_c', name: 'marker_read', arguments: JSON.stringify({ key: 'c' }) },
      ],
    });
    await crash.crashTurn(
      {
        sessionsDir: dirs.sessions,
        workspaceRoot: dirs.root,
        prompt: 'read and echo',
        interactive: false,
      },
      'after-intent',
    );
    const path = onlySessionFile(dirs.sessions);
    expect(onDisk(path)).toEqual({
      records: ['intent call_a', 'intent call_sh', 'intent call_c'],
      pending: 3,
      pc: 'Executing',
    });

    const { agent, store } = resumeHere(dirs, path);
    expect(await agent.resume(new AbortController().signal, () => {})).toBe(3);
    store.close();
    expect(onDisk(path)).toEqual({
      records: [
        'intent call_a',
        'intent call_sh',
        'intent call_c',
        'result call_a ok rerun',
        'result call_sh interrupted never-replay',
        'result call_c ok rerun',
      ],
      pending: 0,
      pc: 'Final',
    });
    expect(markerCount(dirs.root, 'marker_read')).toBe(2);
  });

  it('a crash between two settlements of the batch: the settled read stays, the others are run again in order', async () => {
    const dirs = tempDirs('tole-crash-batch-');
    pushBatch();
    let settlements = 0;
    const fault = (point: FaultPoint): void => {
      if (point === 'before-settlement' && ++settlements === 2) throw new Error('simulated crash');
    };
    const first = buildAgent({
      baseURL: crash.server.url,
      sessionsDir: dirs.sessions,
      workspaceRoot: dirs.root,
      extraTools: [readMarkerTool()],
      fault,
    });
    await expect(first.agent.runTurn('read', new AbortController().signal, () => {})).rejects.toThrow(
      /simulated crash/,
    );
    first.store.close();
    const path = first.store.path;
    expect(onDisk(path)).toEqual({ records: [...INTENTS, 'result call_a ok'], pending: 2, pc: 'Settling' });
    expect(runs(dirs.root)).toEqual([1, 1, 1]);

    const { agent, store } = resumeHere(dirs, path);
    expect(await agent.resume(new AbortController().signal, () => {})).toBe(2);
    store.close();
    expect(onDisk(path)).toEqual({
      records: [...INTENTS, 'result call_a ok', 'result call_b ok rerun', 'result call_c ok rerun'],
      pending: 0,
      pc: 'Final',
    });
    expect(runs(dirs.root)).toEqual([1, 2, 2]);
  });
});
