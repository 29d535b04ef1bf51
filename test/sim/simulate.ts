/**
 * One seeded schedule of the fault simulator: several lifetimes of a tole process over one
 * session on the in-memory disk, each running turns with tool calls of every replay class under
 * the faults its seed picks (a crash at any operation or fault point, failed and short writes,
 * failed fsyncs), then stopping (cleanly, with a storage error, or by crashing). After every
 * lifetime the session is checked from a fresh process; a last lifetime without faults resumes
 * it, and then every intent must be settled exactly once.
 */

import { ApprovalPolicy } from '../../src/core/approval/approval-policy';
import { seededRandom } from '../../src/core/clock';
import { machineState } from '../../src/core/machine/machine';
import { NS } from '../../src/core/registers/namespaces';
import { Agent } from '../../src/core/session/agent';
import { FAULT_POINTS, type AgentDeps } from '../../src/core/session/agent-deps';
import { DEFAULT_LIMITS } from '../../src/core/session/limits';
import { checkSessionFile } from '../../src/core/storage/check';
import { isStorageError } from '../../src/core/storage/errors';
import type { StoredRecord } from '../../src/core/storage/records';
import { SessionStore } from '../../src/core/storage/session-store';
import { ToolRegistry } from '../../src/core/tools/registry';
import type { AnyEntry } from '../../src/core/tree/entry-types';
import { snapshot, steppingClock } from '../support/storage-fixtures';
import { SimCrash, SimDisk, type PlantedBug } from './sim-disk';
import { SIM_TOOLS, SimWorld } from './sim-world';

const DIR = '/sim/sessions';
const MODEL = 'sim-model';

export interface SimOptions {
  readonly planted?: PlantedBug;
  /** Print each step of the schedule (for a replayed seed). */
  readonly trace?: (line: string) => void;
}

export interface SimResult {
  readonly seed: number;
  readonly problems: readonly string[];
  readonly lifetimes: number;
  readonly crashes: number;
  readonly commits: number;
  readonly turns: number;
}

interface Acked {
  readonly records: Map<string, StoredRecord>;
  maxSeq: number;
}

export async function runSchedule(seed: number, options: SimOptions = {}): Promise<SimResult> {
  const schedule = seededRandom(seed);
  const disk = new SimDisk(seededRandom(seed ^ 0x5eed_d15c));
  disk.planted = options.planted ?? null;
  disk.mkdir('/sim');
  disk.mkdir(DIR);
  const world = new SimWorld(seededRandom(seed ^ 0x00c0_ffee), disk);
  const clock = steppingClock();
  const trace = options.trace ?? (() => {});
  const problems: string[] = [];
  const acked: Acked = { records: new Map(), maxSeq: 0 };
  const stats = { lifetimes: 0, crashes: 0, commits: 0, turns: 0 };
  let path: string | null = null;
  const lifetimes = 2 + Math.floor(schedule.float() * 4);

  for (let life = 0; life <= lifetimes && problems.length === 0; life++) {
    const last = life === lifetimes;
    const pid = 1000 + life;
    disk.livePid = pid;
    const ops = disk.opsFor(pid);
    const faultPoint =
      !last && schedule.float() < 0.3
        ? {
            point: FAULT_POINTS[Math.floor(schedule.float() * FAULT_POINTS.length)]!,
            skip: Math.floor(schedule.float() * 3),
          }
        : null;
    if (!last) {
      disk.faults = {
        writeFailure: schedule.float() < 0.3 ? 0.03 : 0,
        shortWrite: schedule.float() < 0.3 ? 0.2 : 0,
        syncFailure: schedule.float() < 0.3 ? 0.03 : 0,
        crashAtOp: schedule.float() < 0.6 ? disk.counts.ops + 1 + Math.floor(schedule.float() * 400) : Infinity,
      };
    }
    trace(
      `life ${life} (pid ${pid})${last ? ' without faults' : `: ${JSON.stringify({ ...disk.faults, crashAtOp: String(disk.faults.crashAtOp) })}${faultPoint ? `, crash at ${faultPoint.point} #${faultPoint.skip + 1}` : ''}`}`,
    );
    stats.lifetimes++;
    let store: SessionStore | null = null;
    let ended = 'stopped';
    try {
      const random = seededRandom(seed + life);
      if (path === null) {
        store = SessionStore.create(DIR, { clock, random, cwd: '/sim/work', ops });
        path = store.path;
      } else store = SessionStore.open(path, { clock, random, ops });
      const opened = store;
      opened.onCommit((records) => {
        stats.commits++;
        for (const record of records) {
          if (record.kind !== 'register')
            acked.records.set(record.kind === 'entry' ? record.id : `usage ${record.id}`, record);
          acked.maxSeq = Math.max(acked.maxSeq, record.seq);
        }
      });
      let seen = 0;
      const deps: AgentDeps = {
        store: opened,
        provider: world.provider(MODEL),
        tools: registry(world),
        policy: new ApprovalPolicy({ rules: [], yes: false, interactive: true }),
        approver: world.approver(),
        workspaceRoot: '/sim/work',
        systemPrompt: 'simulated',
        limits: DEFAULT_LIMITS,
        price: () => ({ costUsdMicros: 1, priced: true }),
        fault: (point) => {
          if (faultPoint?.point === point && seen++ === faultPoint.skip) disk.crashNow(point);
        },
      };
      const agent = new Agent(deps, MODEL);
      const signal = new AbortController().signal;
      await agent.resume(signal, () => {});
      const turns = last ? 1 : 1 + Math.floor(schedule.float() * 3);
      for (let turn = 0; turn < turns; turn++) {
        world.startTurn();
        stats.turns++;
        const result = await agent.runTurn(`prompt ${life}.${turn}`, signal, () => {});
        trace(`  turn ${turn}: ${result.outcome}`);
      }
      if (schedule.float() < 0.2) trace(`  compacted: ${opened.compactStorage(true)}`);
      if (last) checkSettled(opened, problems);
      if (last || schedule.float() < 0.5) checkReplay(opened, path, disk, problems);
    } catch (error) {
      if (error instanceof SimCrash || disk.hasCrashed)
        ended = `crashed ${disk.hasCrashed ? '' : '(after) '}${(error as Error).message}`;
      else if (isStorageError(error) && !last) ended = `stopped on a storage error: ${error.message}`;
      else problems.push(`life ${life}: unexpected ${(error as Error)?.stack ?? String(error)}`);
    }
    if (!disk.hasCrashed) {
      try {
        store?.close();
      } catch (error) {
        if (!disk.hasCrashed) problems.push(`life ${life}: close failed: ${String(error)}`);
      }
    }
    trace(`  ${disk.hasCrashed && !ended.startsWith('crashed') ? 'crashed while closing' : ended}`);
    if (disk.hasCrashed) {
      stats.crashes++;
      disk.recover();
    } else disk.endProcess();
    if (path !== null && disk.read(path) !== null) checkAfter(path, disk, acked, world, problems, life);
  }
  return { seed, problems, ...stats };
}

function registry(world: SimWorld): ToolRegistry {
  const tools = ToolRegistry.create({ interactiveApprover: true });
  for (const tool of world.tools()) tools.register(tool);
  return tools;
}

/** From a fresh process, read-only: the file is sound, every acknowledged commit is in it, no effect ran twice. */
function checkAfter(
  path: string,
  disk: SimDisk,
  acked: Acked,
  world: SimWorld,
  problems: string[],
  life: number,
): void {
  const ops = disk.opsFor(9999);
  const report = checkSessionFile(path, ops);
  if (!report.ok) {
    problems.push(`after life ${life}: tole check is not sound: ${report.problem?.message}`);
    return;
  }
  const store = SessionStore.open(path, { clock: steppingClock(), random: seededRandom(1), readOnly: true, ops });
  try {
    for (const [key, record] of acked.records) {
      const found = key.startsWith('usage ')
        ? store.usage.find((row) => row.id === (record as { id: string }).id)
        : store.entry(key);
      if (!found) problems.push(`after life ${life}: acknowledged ${key} (seq ${record.seq}) is missing`);
      else if (JSON.stringify(found) !== JSON.stringify(record))
        problems.push(
          `after life ${life}: acknowledged ${key} differs: ${JSON.stringify(found)} vs ${JSON.stringify(record)}`,
        );
    }
    if (store.lastSeq < acked.maxSeq)
      problems.push(`after life ${life}: last seq ${store.lastSeq} is below the acknowledged ${acked.maxSeq}`);
    const results = new Map<string, number>();
    for (const entry of store.tree.all() as Iterable<AnyEntry>) {
      if (entry.type === 'tool_result') results.set(entry.payload.callId, (results.get(entry.payload.callId) ?? 0) + 1);
    }
    for (const [callId, n] of results) if (n > 1) problems.push(`after life ${life}: ${callId} settled ${n} times`);
  } finally {
    store.close();
  }
  for (const [id, n] of world.effects) {
    const tool = id.split(' ')[0] as keyof typeof SIM_TOOLS;
    if (n > 1 && SIM_TOOLS[tool] !== 'idempotent')
      problems.push(`after life ${life}: the ${SIM_TOOLS[tool]} effect ${id} ran ${n} times`);
  }
}

/** The writer's registers, tree and ledger equal what a fresh replay of the file builds. */
function checkReplay(store: SessionStore, path: string, disk: SimDisk, problems: string[]): void {
  const fresh = SessionStore.open(path, {
    clock: steppingClock(),
    random: seededRandom(1),
    readOnly: true,
    ops: disk.opsFor(9998),
  });
  try {
    if (JSON.stringify(snapshot(fresh)) !== JSON.stringify(snapshot(store)))
      problems.push('the live state differs from a fresh replay of the file');
  } finally {
    fresh.close();
  }
}

/** After a resume without faults: nothing pending, every intent settled exactly once, the machine at rest. */
function checkSettled(store: SessionStore, problems: string[]): void {
  const pending = store.registers.entries(NS.pending);
  if (pending.length > 0)
    problems.push(`intents still pending after the last resume: ${pending.map(([key]) => key).join(', ')}`);
  const pc = machineState(store).pc;
  if (pc !== 'Final' && pc !== 'Idle') problems.push(`the machine rests in ${pc}`);
  const entries = [...store.tree.all()] as AnyEntry[];
  for (const intent of entries) {
    if (intent.type !== 'tool_intent') continue;
    const settled = entries.filter(
      (entry) => entry.type === 'tool_result' && entry.payload.callId === intent.payload.callId,
    ).length;
    if (settled !== 1) problems.push(`intent ${intent.payload.callId} settled ${settled} times`);
  }
}
