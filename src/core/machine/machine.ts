import { MACHINE_KEY, NS } from '../registers/namespaces';
import type { DraftRecord, StoredRecord } from '../storage/records';
import type { SessionStore } from '../storage/session-store';

/** The program counter's states (a turn runs Planning -> ... -> Final). */
export type MachineStateName =
  | 'Idle'
  | 'Planning'
  | 'ToolCall'
  | 'AwaitingApproval'
  | 'Executing'
  | 'Settling'
  | 'Final';

/**
 * Allowed moves. A call that is denied, refused or fails validation goes from ToolCall or
 * AwaitingApproval straight to Settling; every state but Idle may end in Final (error, abort).
 */
const TRANSITIONS: Readonly<Record<MachineStateName, readonly MachineStateName[]>> = {
  Idle: ['Planning'],
  Planning: ['ToolCall', 'Final'],
  ToolCall: ['AwaitingApproval', 'Executing', 'Settling', 'Final'],
  AwaitingApproval: ['Executing', 'Settling', 'Final'],
  Executing: ['Settling', 'Final'],
  Settling: ['ToolCall', 'Planning', 'Final'],
  Final: ['Planning', 'Idle'],
};

export interface MachineState {
  readonly pc: MachineStateName;
  /** Seq of the commit that made this state: what the next transition must name. */
  readonly seq: number;
}

export class CasConflictError extends Error {
  override readonly name = 'CasConflictError';
  readonly kind = 'cas-conflict';
  constructor(
    readonly expectedSeq: number,
    readonly actualSeq: number,
  ) {
    super(`another driver moved the session first (expected state seq ${expectedSeq}, found ${actualSeq}): reopen it`);
  }
}

export function machineState(store: SessionStore): MachineState {
  const cell = store.registers.cell(NS.machine, MACHINE_KEY);
  if (!cell) return { pc: 'Idle', seq: 0 };
  return { pc: (cell.value as { pc: MachineStateName }).pc, seq: cell.seq };
}

function canMove(from: MachineStateName, to: MachineStateName): boolean {
  return TRANSITIONS[from].includes(to);
}

/**
 * Moves the program counter with a compare-and-set on the state seq, committing `with` records
 * in the same line. A stale `expectedSeq` is rejected: two drivers can never both advance.
 */
export function transition(
  store: SessionStore,
  expectedSeq: number,
  to: MachineStateName,
  withRecords: readonly DraftRecord[] = [],
): { state: MachineState; records: readonly StoredRecord[] } {
  const current = machineState(store);
  if (current.seq !== expectedSeq) throw new CasConflictError(expectedSeq, current.seq);
  if (!canMove(current.pc, to)) throw new Error(`assert: no transition ${current.pc} -> ${to}`);
  const records = store.commit([
    ...withRecords,
    { kind: 'register', op: 'set', namespace: NS.machine, key: MACHINE_KEY, value: { pc: to } },
  ]);
  return { state: { pc: to, seq: records[records.length - 1]!.seq }, records };
}
