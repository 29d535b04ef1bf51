/**
 * One seeded schedule of the fault simulator: several lifetimes of a tole process over one
 * session on the in-memory disk, each running turns with tool calls of every replay class under
 * the faults its seed picks (a crash at any operation or fault point, failed and short writes,
 * failed fsyncs), then stopping (cleanly, with a storage error, or by crashing). Each lifetime
 * approves calls its own way (asking the user, `--yes`, or allow rules), takes a checkpoint
 * before every call that can change files, and may meet a second tole opening the same session
 * (its lock must refuse it) and someone else writing to the file the guarded tool changes.
 * After every lifetime the session is checked from a fresh process; sometimes a byte inside a
 * whole line then rots, and the open must refuse the file; otherwise a last lifetime without
 * faults resumes it, and then every intent must be settled exactly once.
 */

import { ApprovalPolicy, type ApprovalPolicyOptions } from '../../src/core/approval/approval-policy';
import { type Random, seededRandom } from '../../src/core/clock';
import { machineState } from '../../src/core/machine/machine';
import { NS } from '../../src/core/registers/namespaces';
import { Agent } from '../../src/core/session/agent';
import { FAULT_POINTS, type AgentDeps, type FaultPoint } from '../../src/core/session/agent-deps';
import { restoreFiles } from '../../src/core/session/restore-files';
import { DEFAULT_LIMITS } from '../../src/core/session/limits';
import { checkSessionFile } from '../../src/core/storage/check';
import { isStorageError } from '../../src/core/storage/errors';
import { unlockSession } from '../../src/core/storage/lock-file';
import type { StoredRecord } from '../../src/core/storage/records';
import { indexPathOf, readIndex, writeIndex } from '../../src/core/storage/session-index';
import type { SessionHeader } from '../../src/core/storage/records';
import { shipToTable } from '../../src/core/sync/shipper';
import { ConnectionLost, SimTeamTable } from './sim-team-table';
import { SessionStore } from '../../src/core/storage/session-store';
import { ToolRegistry } from '../../src/core/tools/registry';
import { NODE_TOOL_FS, setToolFs } from '../../src/core/tools/tool-fs';
import type { AnyEntry } from '../../src/core/tree/entry-types';
import type { FileOps } from '../../src/core/storage/file-ops';
import { snapshotText, steppingClock } from '../support/storage-fixtures';
import { plantNamed, type PlantName } from './plants';
import { SimCrash, SimDisk } from './sim-disk';
import { DIRECTORY_FSYNC_FAILURES } from './sim-settings';
import { SYNC_TOOL_FS } from './sync-tool-fs';
import { makeWorkspace } from './sim-workspaces';
import { EDITED_FILE, SIM_TOOLS, SimWorld } from './sim-world';
import { ChildChecks, subAgentsFor } from './sim-children';
import { describedOnce } from './described-once';
import { stringifiesTo } from './stringifies-to';
import { STREAMS, simRandom } from './sim-random';

const DIR = '/sim/sessions';
const MODEL = 'sim-model';

export interface SimOptions {
  /** A bug from the mutation list (plants.ts) to run with. */
  readonly planted?: PlantName | null;
  /** Whether a directory fsync can fail with EIO; DIRECTORY_FSYNC_FAILURES unless given. */
  readonly dirSyncFailures?: boolean;
  /** Print each step of the schedule (for a replayed seed). */
  readonly trace?: (line: string) => void;
  /**
   * Where a check takes what checkAfter's replay read (readBackOf), it also replays the file again
   * itself, as it did before, and the two must agree (read-back-is-a-fresh-replay.test.ts).
   */
  readonly crossCheckReadBack?: boolean;
}

export interface SimResult {
  readonly seed: number;
  readonly problems: readonly string[];
  readonly lifetimes: number;
  readonly crashes: number;
  readonly commits: number;
  readonly turns: number;
  /** Schedules that ended on a rotten byte, which the open refused as it must. */
  readonly corruptions: number;
  /** Second openers the lock refused. */
  readonly refusedOpeners: number;
  /** Locks taken from a running writer (`tole unlock --force` from where the holder cannot be seen), which it noticed. */
  readonly locksTaken: number;
  /** Session files another program changed behind their writer, which then refused to commit, saying so. */
  readonly changesRefused: number;
  /** Restores that reported success (and were checked against their checkpoint). */
  readonly restores: number;
  /** Opens that took their state from a saved index (and matched a replay). */
  readonly indexedOpens: number;
  /** Rotten or forged indexes the open refused (and replayed instead). */
  readonly indexesRefused: number;
  /** Syncs to the in-memory team table, and how many of them lost their connection midway. */
  readonly syncs: number;
  readonly syncsCut: number;
  /** Crashes at a fault point of the effect sandwich or of a restore, by point. */
  readonly faultPoints: Readonly<Record<string, number>>;
  /** Sub-agents' session files, and the parent calls that settled with a child's answer. */
  readonly childFiles: number;
  readonly childAnswers: number;
  /** Checks that took what checkAfter's replay read instead of replaying the same bytes again. */
  readonly readBacksTaken: number;
  /** Children's checks that took their last replay of a child file the disk still held unchanged (sim-children.ts). */
  readonly childReplaysKept: number;
}

interface Acked {
  /** Each acknowledged record's seq and JSON, taken as it was acknowledged (not again in every lifetime's check). */
  readonly records: Map<string, { readonly seq: number; readonly json: string }>;
  maxSeq: number;
}

/**
 * edit_file works on real files: a real workspace directory for each schedule running at the
 * moment (a schedule starts its files afresh; one that ended hands its directory to the next),
 * made and removed as sim-workspaces.ts says.
 */
const idleWorkspaces: string[] = [];

function takeWorkspace(): string {
  return idleWorkspaces.pop() ?? makeWorkspace();
}

/** Schedules running now in this process: the file tools use SYNC_TOOL_FS while any does. */
let running = 0;

export async function runSchedule(seed: number, options: SimOptions = {}): Promise<SimResult> {
  const workspace = takeWorkspace();
  if (running++ === 0) setToolFs(SYNC_TOOL_FS);
  try {
    return await runScheduleIn(workspace, seed, options);
  } finally {
    if (--running === 0) setToolFs(NODE_TOOL_FS);
    idleWorkspaces.push(workspace);
  }
}

async function runScheduleIn(workspace: string, seed: number, options: SimOptions): Promise<SimResult> {
  const schedule = simRandom(seed, STREAMS.schedule);
  const plant = plantNamed(options.planted);
  const disk = new SimDisk(simRandom(seed, STREAMS.disk));
  disk.planted = plant?.disk ?? null;
  disk.mkdir('/sim');
  disk.mkdir(DIR);
  const opsFor = (pid: number): FileOps => {
    const ops = disk.opsFor(pid);
    return plant?.ops ? plant.ops(ops, (path) => disk.isDirectory(path)) : ops;
  };
  const world = new SimWorld(simRandom(seed, STREAMS.world), disk, plant?.world ?? null, workspace);
  const trace = options.trace ?? (() => {});
  world.sessionDir = DIR;
  // Some schedules' models also start sub-agents (picked by a hash of the seed, so that the others run as before).
  world.children = (Math.imul(seed, 0x9e37_79b1) >>> 0) / 2 ** 32 < CHILD_SCHEDULES;
  // Some run the user's !commands between turns (picked by another hash, so that the others run as before).
  world.userShells = (Math.imul(seed ^ 0x5be1, 0x85eb_ca6b) >>> 0) / 2 ** 32 < SHELL_SCHEDULES;
  const children = new ChildChecks(DIR, trace, disk);
  const clock = steppingClock();
  const problems: string[] = [];
  if (options.crossCheckReadBack) children.crossCheck = problems;
  const acked: Acked = { records: new Map(), maxSeq: 0 };
  const stats = {
    lifetimes: 0,
    crashes: 0,
    commits: 0,
    turns: 0,
    corruptions: 0,
    refusedOpeners: 0,
    restores: 0,
    locksTaken: 0,
    changesRefused: 0,
    indexedOpens: 0,
    indexesRefused: 0,
    syncs: 0,
    syncsCut: 0,
    readBacksTaken: 0,
  };
  const faultPoints: Record<string, number> = {};
  let path: string | null = null;
  let header: SessionHeader | null = null;
  const team = new SimTeamTable(plant?.table === 'cursor-alone');
  const lifetimes = faultedLifetimes(schedule);
  // Some schedules open as a large session does: on two threads, saving an index and using it.
  const indexing: IndexingOptions = schedule.float() < INDEXED_SCHEDULES ? INDEXING : {};

  for (let life = 0; life <= lifetimes && problems.length === 0; life++) {
    const last = life === lifetimes;
    const pid = 1000 + life;
    disk.livePid = pid;
    const ops = opsFor(pid);
    const approval = last ? INTERACTIVE : APPROVALS[Math.floor(schedule.float() * APPROVALS.length)]!;
    const faultPoint =
      !last && schedule.float() < 0.3
        ? {
            point: FAULT_POINTS[Math.floor(schedule.float() * FAULT_POINTS.length)]!,
            skip: Math.floor(schedule.float() * 3),
          }
        : null;
    if (!last) {
      const writeFailure = schedule.float() < 0.3 ? 0.03 : 0;
      const shortWrite = schedule.float() < 0.3 ? 0.2 : 0;
      const syncFailure = schedule.float() < 0.3 ? 0.03 : 0;
      disk.faults = {
        writeFailure,
        shortWrite,
        syncFailure,
        dirSyncFailure: syncFailure > 0 && (options.dirSyncFailures ?? DIRECTORY_FSYNC_FAILURES) ? DIR_SYNC_FAILURE : 0,
        crashAtOp: schedule.float() < 0.6 ? disk.counts.ops + 1 + Math.floor(schedule.float() * 400) : Infinity,
      };
    }
    trace(
      `life ${life} (pid ${pid}, ${describeApproval(approval)})${last ? ' without faults' : `: ${JSON.stringify({ ...disk.faults, crashAtOp: String(disk.faults.crashAtOp) })}${faultPoint ? `, crash at ${faultPoint.point} #${faultPoint.skip + 1}` : ''}`}`,
    );
    stats.lifetimes++;
    let store: SessionStore | null = null;
    let ended = 'stopped';
    let liveState: string | null = null;
    /** Set once `tole unlock --force` took this writer's lock: it must commit nothing more. */
    let lockTaken: string | null = null;
    /** Set once another program changed the session file behind this writer: it must commit nothing more, and say so. */
    let changedBehind: string | null = null;
    let intruder: SessionStore | null = null;
    try {
      const random = simRandom(seed, STREAMS.lifetime, life);
      if (path === null) {
        store = SessionStore.create(DIR, { clock, random, cwd: workspace, ops });
        path = store.path;
        header = store.header;
      } else store = SessionStore.open(path, { clock, random, ops, ...indexing });
      const opened = store;
      opened.onCommit((records) => {
        if (lockTaken !== null)
          problems.push(`life ${life}: the writer committed seq ${records[0]?.seq} after ${lockTaken}`);
        if (changedBehind !== null)
          problems.push(`life ${life}: the writer committed seq ${records[0]?.seq} after ${changedBehind}`);
        stats.commits++;
        for (const record of records) {
          if (record.kind !== 'register')
            acked.records.set(record.kind === 'entry' ? record.id : `usage ${record.id}`, {
              seq: record.seq,
              json: JSON.stringify(record),
            });
          acked.maxSeq = Math.max(acked.maxSeq, record.seq);
        }
      });
      let seen = 0;
      const fault = (point: FaultPoint): void => {
        if (faultPoint?.point === point && seen++ === faultPoint.skip) {
          faultPoints[point] = (faultPoints[point] ?? 0) + 1;
          disk.crashNow(point);
        }
      };
      const checkpoints = world.checkpoints();
      const deps: AgentDeps = {
        store: opened,
        provider: world.provider(MODEL),
        tools: registry(world),
        policy: new ApprovalPolicy(approval),
        approver: world.approver(),
        checkpoints,
        workspaceRoot: workspace,
        systemPrompt: 'simulated',
        limits: DEFAULT_LIMITS,
        price: () => ({ costUsdMicros: 1, priced: true }),
        fault,
      };
      if (world.children) {
        const subAgents = subAgentsFor(
          deps,
          MODEL,
          clock,
          simRandom(seed, STREAMS.subAgents, life),
          ops,
          plant?.task ?? null,
        );
        subAgents.onChildEvent((event) => children.saw(event));
      }
      const agent = new Agent(deps, MODEL);
      const signal = new AbortController().signal;
      await agent.resume(signal, () => {});
      const turns = last ? 1 : 1 + Math.floor(schedule.float() * 3);
      // Its own stream, so that the schedule's other draws are the ones they were before compactions between turns.
      const compacting = simRandom(seed, STREAMS.compaction, life);
      // Its own stream too: another program changing the session file before a turn.
      const outsider = simRandom(seed, STREAMS.outsider, life);
      for (let turn = 0; turn < turns; turn++) {
        if (!last && changedBehind === null && lockTaken === null && outsider.float() < CHANGED_BEHIND) {
          changedBehind = changeBehind(disk, path, outsider, acked, stats.syncs > 0);
          trace(`  ${changedBehind}`);
        }
        if (compacting.float() < COMPACTION_BETWEEN_TURNS)
          trace(`  compacted before turn ${turn}: ${opened.compactStorage(true)}`);
        world.startTurn();
        stats.turns++;
        const result = await agent.runTurn(`prompt ${life}.${turn}`, signal, () => {});
        trace(`  turn ${turn}: ${result.outcome}`);
        if (!last && world.userShells && schedule.float() < 0.3) {
          // Between turns, the user's own !command: its intent marked as the user's, never run twice.
          const command = `shell-${life}.${turn}`;
          const ran = await agent.runShell(command, signal, () => {});
          trace(`  !${command}: ${ran.outcome}`);
        }
        if (!last && schedule.float() < 0.2) {
          const entries = [...opened.tree.all()];
          const target = entries[Math.floor(schedule.float() * entries.length)]!;
          const outcome = await restoreFiles({ store: opened, checkpoints, fault }, target.id);
          trace(`  restore to ${target.id}: ${outcome.ok ? `ok (${outcome.plan.checkpoint})` : outcome.reason}`);
          if (outcome.ok) stats.restores++;
          if (outcome.ok && world.editedFile() !== world.checkpointed(outcome.plan.checkpoint))
            problems.push(
              `the restore to ${target.id} said it restored ${outcome.plan.checkpoint}, and ${EDITED_FILE} differs from it`,
            );
        }
        if (!last && schedule.float() < 0.15) {
          const refused = secondOpener(path, opsFor(7000 + life), pid, problems);
          trace(`  a second tole opened the session: ${refused ? 'refused' : 'LET IN'}`);
          if (refused) stats.refusedOpeners++;
        }
        if (!last && lockTaken === null && schedule.float() < 0.04) {
          // From where the holder cannot be seen (another host), `tole unlock --force` removes its
          // lock; sometimes another tole then opens the session and holds a lock of its own.
          const unlocked = unlockSession(elsewhere(opsFor(8000 + life)), path, true);
          if (unlocked.removed) {
            lockTaken = 'tole unlock --force removed its lock';
            if (schedule.float() < 0.5) {
              intruder = SessionStore.open(path, {
                clock,
                random: simRandom(seed, STREAMS.intruder, life),
                ops: opsFor(7500 + life),
              });
              lockTaken = 'tole unlock --force removed its lock and another tole took a new one';
            }
            stats.locksTaken++;
            trace(`  ${lockTaken}`);
          }
        }
      }
      if (schedule.float() < 0.2) trace(`  compacted: ${opened.compactStorage(true)}`);
      if (last) checkSettled(opened, problems);
      if (last && world.children) children.checkSettled(opsFor(9994), problems);
      // Compared below with a fresh replay of the file, once this process has stopped cleanly.
      if (last || schedule.float() < 0.5) liveState = snapshotText(opened);
    } catch (error) {
      if (error instanceof SimCrash || disk.hasCrashed)
        ended = `crashed ${disk.hasCrashed ? '' : '(after) '}${(error as Error).message}`;
      else if (changedBehind !== null && isStorageError(error)) {
        ended = `stopped on a storage error: ${error.message}`;
        // The writer refused: it must say so, and what to do.
        if (!/changed|replaced|removed|cut|written to/.test(error.message) || !error.message.includes('tole check'))
          problems.push(
            `life ${life}: after ${changedBehind}, the writer stopped without saying why: ${error.message}`,
          );
        else stats.changesRefused++;
      } else if (isStorageError(error) && !last) ended = `stopped on a storage error: ${error.message}`;
      else problems.push(`life ${life}: unexpected ${(error as Error)?.stack ?? String(error)}`);
    }
    if (changedBehind !== null && !disk.hasCrashed && !ended.startsWith('stopped on a storage error'))
      problems.push(`life ${life}: after ${changedBehind}, the writer went on and never refused a commit`);
    if (!disk.hasCrashed) {
      try {
        intruder?.close();
        store?.close();
      } catch (error) {
        if (!disk.hasCrashed) problems.push(`life ${life}: close failed: ${String(error)}`);
      }
    }
    trace(`  ${disk.hasCrashed && !ended.startsWith('crashed') ? 'crashed while closing' : ended}`);
    await world.drain();
    const crashed = disk.hasCrashed;
    disk.livePid = 0;
    if (crashed) {
      stats.crashes++;
      disk.recover();
      // While tole was down, someone else wrote to the file the guarded tool changes.
      if (schedule.float() < 0.5) world.otherWriter();
    } else disk.endProcess();
    problems.push(...world.problems.splice(0));
    if (path === null) continue;
    if (!disk.has(path)) {
      if (acked.maxSeq > 0)
        problems.push(`after life ${life}: the session file is gone, with seq ${acked.maxSeq} acknowledged`);
      continue;
    }
    const readBack = checkAfter(
      path,
      opsFor(9999),
      disk,
      acked,
      world,
      problems,
      life,
      crashed ? null : liveState,
      last,
      indexing,
      stats,
    );
    // A parent that does not open is already a problem; the children's checks read the parent as checkAfter read it.
    if (world.children && problems.length === 0) {
      const parent = readBackOf(disk, path, readBack, stats);
      children.checkAfter(path, disk.fileNames(), opsFor(9993), problems, life, last, parent);
      if (parent !== null && options.crossCheckReadBack)
        crossCheck(parent, children.readParent(path, opsFor(9993)), problems, `life ${life}'s parent`);
    }
    if (problems.length === 0 && header !== null && (last || schedule.float() < 0.1)) {
      // `tole sync` ships the session to the team's table; its connection sometimes drops midway,
      // and the next sync goes on from there. The last one runs to the end.
      const cut = !last && schedule.float() < 0.5;
      if (cut) team.dropWithin(schedule, 12);
      try {
        await shipToTable(team.table(), [{ path, header }], { person: 'sim', host: 'sim', ops: opsFor(9996) });
        trace(`  synced to the team table: cursor ${team.cursor(header.id)}`);
      } catch (error) {
        if (!(error instanceof ConnectionLost)) throw error;
        stats.syncsCut++;
        trace(`  a sync lost its connection: cursor ${team.cursor(header.id)}`);
      }
      team.dropAtOp = Infinity;
      stats.syncs++;
      const shipped = readBackOf(disk, path, readBack, stats);
      checkShipped(path, header.id, opsFor(9995), team, problems, life, last, shipped);
      if (shipped !== null && options.crossCheckReadBack)
        crossCheck(shipped, replayRecords(path, opsFor(9995)), problems, `life ${life}'s sync`);
    }
    if (!last && problems.length === 0 && schedule.float() < 0.05) {
      const line = disk.corruptLine(path);
      if (line === null) continue;
      trace(`  a byte of line ${line} rotted`);
      checkRefused(path, opsFor(9997), line, problems);
      stats.corruptions++;
      break;
    }
  }
  if (problems.length === 0 && stats.corruptions === 0 && path !== null && indexing.indexKey && disk.has(path))
    checkIndexRefusals(path, opsFor(9998), disk, problems, stats, trace);
  return {
    seed,
    problems,
    ...stats,
    faultPoints,
    childFiles: children.files.size,
    childAnswers: children.answers,
    childReplaysKept: children.replaysKept,
  };
}

/** The lifetimes with faults a schedule runs before its last one: the first number it draws. */
function faultedLifetimes(schedule: Random): number {
  return 2 + Math.floor(schedule.float() * 4);
}

/**
 * What seed `seed`'s schedule costs, in lifetimes (its last one included): a run's time grows
 * with them (a shard of 1,250 seeds whose 905 drew one lifetime more took 1.2 times as long as
 * the others, as its lifetimes predict). The shards are cut by it (fault-simulator-shard.ts);
 * it draws from the schedule's own generator, so it follows whatever the schedule draws first.
 */
export function scheduleWeight(seed: number): number {
  return 1 + faultedLifetimes(simRandom(seed, STREAMS.schedule));
}

/**
 * The chance that a directory's fsync fails in a lifetime whose fsyncs fail: far above a file's
 * (0.03), since a process fsyncs a directory only a few times (a create, a compaction, an open)
 * and each is a point where a name's durability is decided; at 0.03 a writable open that skipped
 * its own directory fsync (plant open-name-not-made-durable) was caught by 13 of 3,200 seeds, at
 * 0.3 by 17 of 300 (seed 5 first).
 */
const DIR_SYNC_FAILURE = 0.3;

/**
 * The chance of a compaction before each turn of a lifetime: that turn and the ones after it
 * commit to the rewritten file, and a crash among them loses those commits if the rename that put
 * it in place was not made durable (compaction's directory fsync).
 */
const COMPACTION_BETWEEN_TURNS = 0.3;

/**
 * The chance, before each turn of a lifetime with faults, that another program changes the session
 * file behind its writer (changeBehind).
 */
const CHANGED_BEHIND = 0.05;

/**
 * Another program changes the session file at `path` behind its writer: a copy renamed over it,
 * its end cut off, or a line of its own appended. The writer must commit nothing more (its next
 * commit is refused, saying what changed and to run tole check). Commits the change itself took
 * off the file (a cut) are no longer tole's to keep: they leave the acknowledged ledger, and the
 * ones after them must be read back as before. A cut is drawn only before any sync: the team table
 * would hold what the file lost. Returns what was done, for the trace and the problems.
 */
function changeBehind(disk: SimDisk, path: string | null, random: Random, acked: Acked, synced: boolean): string {
  if (path === null) throw new Error('assert: no session file yet');
  const draw = random.float();
  if (draw < 0.4) {
    disk.changeBehind(path, 'renamed', 0);
    return 'another program renamed a copy over the session file';
  }
  const data = disk.read(path)!;
  // The start of the last line; 0 when the header is the only one (a cut would take the header: nothing of tole's to keep).
  const lastStart = data.lastIndexOf(0x0a, data.length - 2) + 1;
  if (draw < 0.7 || synced || lastStart === 0) {
    disk.changeBehind(
      path,
      'appended',
      Buffer.from(`{"written by":"another program ${Math.floor(random.float() * 1000)}"}\n`),
    );
    return 'another program appended a line to the session file';
  }
  const cut = 1 + Math.floor(random.float() * (data.length - lastStart));
  disk.changeBehind(path, 'cut', cut);
  forgetCutCommits(disk.read(path)!, acked);
  return `another program cut ${cut} bytes off the session file`;
}

/** Takes out of `acked` every record no whole line of `data` (a session file after a cut) still holds. */
function forgetCutCommits(data: Buffer, acked: Acked): void {
  let kept = 0;
  const lines = data.toString('utf8').split('\n').slice(1, -1);
  for (const line of lines) {
    try {
      const { r } = JSON.parse(line) as { r: StoredRecord | StoredRecord[] };
      for (const record of Array.isArray(r) ? r : [r]) kept = Math.max(kept, record.seq);
    } catch {
      // A line cut in half: its commit is gone.
    }
  }
  for (const [key, record] of acked.records) if (record.seq > kept) acked.records.delete(key);
  acked.maxSeq = Math.min(acked.maxSeq, kept);
}

/** Share of schedules whose models also start sub-agents (the `task` tool), one or several at once. */
const CHILD_SCHEDULES = 0.25;
/** The share of schedules whose user runs !commands between turns. */
const SHELL_SCHEDULES = 0.25;

type IndexingOptions = {
  readonly indexKey?: () => Buffer;
  readonly asideMinBytes?: number;
  readonly asideWorker?: boolean;
};
/** Share of schedules whose opens replay on two threads with a key, so that they save an index and use it. */
const INDEXED_SCHEDULES = 0.05;
/**
 * The user's key for the index's MAC, and the two-thread replay (with its index) for any size:
 * the product's threshold is 8 MiB. Its check runs on this thread, with no worker: a schedule's
 * file is one piece, which this thread takes itself as soon as it asks for the answer, and the
 * workers' starts (a dozen in such a schedule) took 164 ms of processor time per schedule against
 * 44 ms for all the rest (the worker's own check is proven in
 * test/core/storage/worker-check-refuses-what-one-thread-refuses.test.ts).
 */
const INDEXING: IndexingOptions = { indexKey: () => SIM_INDEX_KEY, asideMinBytes: 0, asideWorker: false };
const SIM_INDEX_KEY = Buffer.alloc(32, 0x5a);
const FORGER_KEY = Buffer.alloc(32, 0x66);

/**
 * At the end of a schedule that saved indexes: an index that is vouched for is used and gives the
 * replay's state; one whose byte rotted, and one forged (its values changed, its CRC recomputed,
 * signed with a key that is not the user's), are not used: the open replays the file instead and
 * gives the same state, and a forged one is set aside.
 */
function checkIndexRefusals(
  path: string,
  ops: FileOps,
  disk: SimDisk,
  problems: string[],
  stats: { indexedOpens: number; indexesRefused: number },
  trace: (line: string) => void,
): void {
  const open = (readOnly: boolean): SessionStore =>
    SessionStore.open(path, { clock: steppingClock(), random: seededRandom(5), ops, readOnly, ...INDEXING });
  const truth = SessionStore.open(path, { clock: steppingClock(), random: seededRandom(4), ops, readOnly: true });
  const expected = snapshotText(truth);
  truth.close();
  // A writable open saves an index (or finds a fresh one); the next open must take its state from it.
  open(false).close();
  const size = disk.read(path)!.length;
  const saved = readIndex(ops, path, size, SIM_INDEX_KEY);
  if (saved === null) return;
  const used = open(true);
  if (used.indexedBytes === 0) problems.push(`an index vouched for by the user's key was not used`);
  else stats.indexedOpens++;
  if (snapshotText(used) !== expected) problems.push(`an open that used the saved index differs from a replay`);
  used.close();
  const good = disk.read(indexPathOf(path))!;
  const numbers = Float64Array.from(saved.numbers, (n, i) => (i === saved.numbers.length - 1 ? n + 1 : n));
  const cases: readonly [string, () => void, boolean][] = [
    ['a rotten byte', () => disk.overwrite(indexPathOf(path), flipByte(good)), false],
    ['forged values signed with another key', () => writeIndex(ops, path, { ...saved, numbers }, FORGER_KEY), true],
  ];
  for (const [what, spoil, setAside] of cases) {
    spoil();
    const opened = open(false);
    trace(`  an index with ${what}: ${opened.indexedBytes === 0 ? 'refused' : 'USED'}`);
    if (opened.indexedBytes > 0) problems.push(`an index with ${what} was used`);
    else stats.indexesRefused++;
    if (snapshotText(opened) !== expected) problems.push(`after an index with ${what}, the open differs from a replay`);
    if (setAside && opened.report.indexSetAside?.movedTo == null)
      problems.push(`an index with ${what} was not set aside`);
    opened.close();
    disk.overwrite(indexPathOf(path), good);
  }
}

/** `bytes` with one bit of its body changed (in its second half, past the CRC and MAC, whose hex digits read the same in either case). */
function flipByte(bytes: Buffer): Buffer {
  const out = Buffer.from(bytes);
  const half = Math.floor(out.length / 2);
  const at = half + ((out.length * 7919) % (out.length - half));
  out[at] = out[at]! ^ 0x01;
  return out;
}

const INTERACTIVE: ApprovalPolicyOptions = { rules: [], yes: false, interactive: true };
/** How a lifetime approves calls: the user asks, `--yes`, allow rules (some covering a subject glob only). */
const APPROVALS: readonly ApprovalPolicyOptions[] = [
  INTERACTIVE,
  { rules: [], yes: true, interactive: true },
  { rules: [], yes: true, interactive: false },
  {
    rules: ['sim_guarded', 'edit_file:notes.txt', 'write_file:draft.txt', 'sim_never:call_*1'],
    yes: false,
    interactive: true,
  },
  { rules: ['sim_never'], yes: false, interactive: false },
];

function describeApproval(approval: ApprovalPolicyOptions): string {
  if (approval.yes) return `--yes${approval.interactive ? '' : ', headless'}`;
  if (approval.rules.length > 0) return `allow ${approval.rules.join(' ')}${approval.interactive ? '' : ', headless'}`;
  return 'asking the user';
}

/** A second tole opening the session while `holder` writes to it: its lock must refuse it. */
function secondOpener(path: string, ops: FileOps, holder: number, problems: string[]): boolean {
  let second: SessionStore;
  try {
    second = SessionStore.open(path, { clock: steppingClock(), random: seededRandom(7), ops });
  } catch (error) {
    if (isStorageError(error, 'locked')) return true;
    throw error;
  }
  problems.push(`a second tole opened the session for writing while pid ${holder} held it`);
  second.close();
  return false;
}

/**
 * The team table holds the file's records exactly once: every record at or below its cursor is
 * there as the file holds it, nothing above the cursor is, each intent at or below it has one
 * tool-effect row, settled as the file settles it; after the last sync the cursor is the file's
 * last seq.
 */
function checkShipped(
  path: string,
  id: string,
  ops: FileOps,
  team: SimTeamTable,
  problems: string[],
  life: number,
  last: boolean,
  readBack: ReadBack | null,
): void {
  const { records, lastSeq } = readBack ?? replayRecords(path, ops);
  const cursor = team.cursor(id);
  const held = team.recordsOf(id);
  const effects = team.effectsOf(id);
  const found: string[] = [];
  const intents = new Map<string, AnyEntry>();
  for (const record of records) {
    const entry = record as unknown as AnyEntry;
    // The first intent of a call, as a search from the file's start finds it.
    if (record.kind === 'entry' && entry.type === 'tool_intent' && !intents.has(entry.payload.callId))
      intents.set(entry.payload.callId, entry);
  }
  for (const record of records) {
    if (record.seq > cursor) continue;
    const row = held.get(record.seq);
    if (row === undefined)
      found.push(`seq ${record.seq} is at or below the cursor ${cursor} and not in the team table`);
    else if (!team.bodyMatches(row, record))
      found.push(
        `the team table's seq ${record.seq} differs from the file's: ${JSON.stringify(row.body)} vs ${JSON.stringify(record)}`,
      );
    if (record.kind !== 'entry') continue;
    const entry = record as unknown as AnyEntry;
    if (entry.type === 'tool_intent' && !effects.has(entry.id))
      found.push(`intent ${entry.id} (seq ${record.seq}) has no tool-effect row`);
    if (entry.type === 'tool_result') {
      const intent = intents.get(entry.payload.callId);
      const row = intent ? effects.get(intent.id) : undefined;
      if (row !== undefined && row['settlement_entry_id'] !== entry.id)
        found.push(`the tool-effect row of ${entry.payload.callId} is not settled by ${entry.id}`);
    }
  }
  for (const seq of held.keys())
    if (seq > cursor) found.push(`the team table holds seq ${seq}, above its cursor ${cursor}`);
  if (last && cursor !== lastSeq)
    found.push(`after the last sync the cursor is ${cursor} and the file's last seq ${lastSeq}`);
  problems.push(...found.slice(0, 5).map((problem) => `after life ${life}'s sync: ${problem}`));
}

/** Every record of the file at `path` in its order, and its last seq, from a read-only replay of it. */
function replayRecords(path: string, ops: FileOps): { records: StoredRecord[]; lastSeq: number } {
  const records: StoredRecord[] = [];
  const store = SessionStore.open(path, {
    clock: steppingClock(),
    random: seededRandom(6),
    readOnly: true,
    ops,
    onReplay: (commit) => records.push(...commit),
  });
  const lastSeq = store.lastSeq;
  store.close();
  return { records, lastSeq };
}

/**
 * What checkAfter's read-only replay of the session file read: the bytes it replayed, every record
 * the replay gave (in the file's order), the state's last seq, the header's id and the tree's
 * entries. A replay of the same bytes gives the same (it reads nothing else: a read-only open takes
 * no lock and writes nothing), so the checks after it (the children's, the team table's) take this
 * instead of replaying the file again, as long as the file still holds those bytes (readBackOf).
 */
export interface ReadBack {
  readonly bytes: Buffer;
  readonly records: readonly StoredRecord[];
  readonly lastSeq: number;
  readonly headerId: string;
  readonly entries: readonly AnyEntry[];
}

/** `readBack` if the file at `path` holds the bytes it was read from, else null (the check replays the file itself). */
function readBackOf(
  disk: SimDisk,
  path: string,
  readBack: ReadBack | null,
  stats: { readBacksTaken: number },
): ReadBack | null {
  if (readBack === null || !disk.holds(path, readBack.bytes)) return null;
  stats.readBacksTaken++;
  return readBack;
}

/** With crossCheckReadBack: what a check took from the read-back equals what its own replay reads. */
function crossCheck(
  taken: Partial<Omit<ReadBack, 'bytes'>>,
  fresh: Partial<Omit<ReadBack, 'bytes'>>,
  problems: string[],
  what: string,
): void {
  for (const key of Object.keys(fresh) as (keyof typeof fresh)[])
    if (JSON.stringify(taken[key]) !== JSON.stringify(fresh[key]))
      problems.push(`${what}: the read-back's ${key} differs from a fresh replay of the file`);
}

/** After a byte rotted inside whole line `line`: `tole check` and a writable open both refuse the file, naming a line. */
function checkRefused(path: string, ops: FileOps, line: number, problems: string[]): void {
  // A rotten header may also read as a header of another format: refused as a version problem.
  const refusals: readonly string[] = line === 1 ? ['corrupt', 'version'] : ['corrupt'];
  const report = checkSessionFile(path, ops);
  if (report.ok || !refusals.includes(report.problem?.kind ?? 'none'))
    problems.push(`a byte of line ${line} rotted and tole check says ${report.ok ? 'sound' : report.problem?.message}`);
  try {
    SessionStore.open(path, { clock: steppingClock(), random: seededRandom(3), ops }).close();
    problems.push(`a byte of line ${line} rotted and a writable open accepted the file`);
  } catch (error) {
    if (!isStorageError(error) || !refusals.includes(error.kind)) throw error;
    // The header seeds the chain: a rotten header is found at line 2, whose message names both.
    if (error.details.line === undefined || error.details.line > Math.max(line, 2))
      problems.push(`a byte of line ${line} rotted and the open blamed line ${error.details.line}: ${error.message}`);
  }
}

/** A process's file operations as seen from another host: the lock's holder cannot be checked from there. */
function elsewhere(ops: FileOps): FileOps {
  return { ...ops, processes: { ...ops.processes!, host: 'elsewhere' } };
}

function registry(world: SimWorld): ToolRegistry {
  const tools = ToolRegistry.create({ interactiveApprover: true });
  for (const tool of world.tools()) tools.register(describedOnce(tool));
  return tools;
}

/** From a fresh process, read-only: the file is sound, every acknowledged commit is in it, no effect ran twice. */
function checkAfter(
  path: string,
  ops: FileOps,
  disk: SimDisk,
  acked: Acked,
  world: SimWorld,
  problems: string[],
  life: number,
  liveState: string | null,
  last: boolean,
  indexing: IndexingOptions,
  stats: { indexedOpens: number },
): ReadBack | null {
  // A read-only open replays and checks the whole file as `tole check` does; the check itself
  // (the same replay once more, with its report) runs after the last lifetime only.
  if (last) {
    const report = checkSessionFile(path, ops);
    if (!report.ok) problems.push(`after life ${life}: tole check is not sound: ${report.problem?.message}`);
  }
  // A schedule that opens from an index replays only what the index does not cover: nothing to share.
  const bytes = indexing.indexKey ? null : disk.read(path);
  const records: StoredRecord[] = [];
  let store: SessionStore;
  try {
    store = SessionStore.open(path, {
      clock: steppingClock(),
      random: seededRandom(1),
      readOnly: true,
      ops,
      ...(bytes === null ? indexing : { onReplay: (commit) => records.push(...commit) }),
    });
    if (store.indexedBytes > 0) stats.indexedOpens++;
  } catch (error) {
    if (!isStorageError(error)) throw error;
    problems.push(`after life ${life}: the session does not open: ${error.message}`);
    return null;
  }
  let readBack: ReadBack | null = null;
  try {
    if (bytes !== null)
      readBack = {
        bytes,
        records,
        lastSeq: store.lastSeq,
        headerId: store.header.id,
        entries: [...store.tree.all()] as AnyEntry[],
      };
    const usage = new Map(store.usage.map((row) => [`usage ${row.id}`, row]));
    if (liveState !== null && snapshotText(store) !== liveState)
      problems.push(`after life ${life}: the live state differed from a fresh replay of the file`);
    for (const [key, record] of acked.records) {
      const found = key.startsWith('usage ') ? usage.get(key) : store.entry(key);
      if (!found) problems.push(`after life ${life}: acknowledged ${key} (seq ${record.seq}) is missing`);
      else if (!stringifiesTo(found, record.json))
        problems.push(`after life ${life}: acknowledged ${key} differs: ${JSON.stringify(found)} vs ${record.json}`);
    }
    if (store.lastSeq < acked.maxSeq)
      problems.push(`after life ${life}: last seq ${store.lastSeq} is below the acknowledged ${acked.maxSeq}`);
    const results = new Map<string, number>();
    for (const entry of store.tree.all() as Iterable<AnyEntry>) {
      if (entry.type === 'tool_result') results.set(entry.payload.callId, (results.get(entry.payload.callId) ?? 0) + 1);
    }
    for (const [callId, n] of results) if (n > 1) problems.push(`after life ${life}: ${callId} settled ${n} times`);
    checkEdits(store, world.editedFile(), problems, life);
  } finally {
    store.close();
  }
  for (const [id, n] of world.effects) {
    const tool = id.split(' ')[0]!;
    const replay = tool in SIM_TOOLS ? SIM_TOOLS[tool as keyof typeof SIM_TOOLS] : 'guarded';
    if (n > 1 && replay !== 'idempotent')
      problems.push(`after life ${life}: the ${replay} effect ${id} ran ${n} times`);
  }
  return readBack;
}

/**
 * No edit's line is in the file twice, and every edit acknowledged as done is in it once (but
 * for edits a later restore took back).
 */
function checkEdits(store: SessionStore, file: string, problems: string[], life: number): void {
  const lines = new Map<string, number>();
  for (const line of file.split('\n')) if (line.startsWith('edit ')) lines.set(line, (lines.get(line) ?? 0) + 1);
  for (const [line, n] of lines)
    if (n > 1) problems.push(`after life ${life}: the edit's line "${line}" is in ${EDITED_FILE} ${n} times`);
  const entries = [...store.tree.all()] as AnyEntry[];
  const restored = Math.max(
    0,
    ...entries.filter((entry) => entry.type === 'restore' || entry.type === 'restore_result').map((entry) => entry.seq),
  );
  for (const entry of entries) {
    if (entry.type !== 'tool_result' || entry.payload.tool !== 'edit_file' || entry.payload.outcome !== 'ok') continue;
    if (entry.seq > restored && !lines.has(`edit ${entry.payload.callId}`))
      problems.push(
        `after life ${life}: edit ${entry.payload.callId} settled ok but its line is not in ${EDITED_FILE}`,
      );
  }
}

/** After a resume without faults: nothing pending, every intent settled exactly once, the machine at rest. */
export function checkSettled(store: SessionStore, problems: string[]): void {
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
