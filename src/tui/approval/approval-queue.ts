import { SHELL_SUBJECT_TOOLS } from '../../core/approval/allowlist';
import type { ApprovalRequest, Approver, Decision } from '../../core/approval/approver';
import { destructiveLines } from './destructive-lines';

/** A call waiting for a keypress. */
export interface PendingApproval {
  readonly request: ApprovalRequest;
  /** `a` (allow the tool for the session) is offered for Write calls only, never for Destructive. */
  readonly offersAllow: boolean;
  /** Its subject is a shell command line: the box shows it as numbered lines. */
  readonly shell: boolean;
  /** The command's lines (by index) that hold a Destructive part, marked in the box; worked out once, here. */
  readonly marked: ReadonlySet<number>;
}

/** What the box shows about a request beside the request itself. */
export function pendingApproval(request: ApprovalRequest): PendingApproval {
  const shell = SHELL_SUBJECT_TOOLS.includes(request.tool);
  return {
    request,
    offersAllow: request.risk === 'Write',
    shell,
    marked: shell && request.risk === 'Destructive' ? destructiveLines(request.subject, request.reason) : new Set(),
  };
}

/**
 * `allow-prefix`: approve, keeping the command prefix the user confirmed (`p`); `approve-edited`:
 * approve the command as the user edited it (`e`).
 */
export type ApprovalAnswer = 'approve' | 'deny' | 'allow-for-session' | 'allow-prefix' | 'approve-edited';

/** What an answer carries beside its kind: the denial's message, the prefix kept, the edited command. */
interface AnswerDetail {
  readonly message?: string;
  readonly prefix?: readonly string[];
  readonly edited?: string;
}

/** Bound on a denial's message: it goes to the model whole, as the call's result. */
export const MAX_DENIAL_MESSAGE_CHARS = 4_000;

/** How long a prompt must have been on screen before a key can approve it. */
export const APPROVAL_ARM_MS = 400;

interface ApprovalQueueOptions {
  /** The arming delay (tests of key routing set 0; the screen uses APPROVAL_ARM_MS). */
  readonly armMs?: number;
  readonly nowMs?: () => number;
}

interface Waiter {
  readonly pending: PendingApproval;
  readonly resolve: (decision: Decision) => void;
  readonly dispose: () => void;
}

/**
 * The interactive approver: `decide` parks the request here and the screen's approval prompt
 * takes the keyboard until a key answers it. Only a keypress resolves a request (or the turn's
 * abort, which denies it): nothing here approves on its own, whatever the risk.
 */
export class ApprovalQueue implements Approver {
  private readonly waiters: Waiter[] = [];
  private readonly listeners = new Set<() => void>();
  private snapshot: PendingApproval | null = null;
  private shownAtMs = 0;

  constructor(private readonly options: ApprovalQueueOptions = {}) {}

  /**
   * True once the prompt on screen has been up for the arming delay. Keys that approve are
   * ignored before that, so a `y` typed ahead for something else (a queued prompt, a reply in
   * progress) can never approve a call the user has not seen. Denying needs no delay.
   */
  armed(): boolean {
    const armMs = this.options.armMs ?? APPROVAL_ARM_MS;
    return this.snapshot !== null && this.now() - this.shownAtMs >= armMs;
  }

  private now(): number {
    return (this.options.nowMs ?? Date.now)();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** The request the prompt shows now (the oldest one waiting). */
  getSnapshot = (): PendingApproval | null => this.snapshot;

  decide(request: ApprovalRequest, signal: AbortSignal): Promise<Decision> {
    if (signal.aborted) return Promise.resolve(interrupted());
    return new Promise<Decision>((resolve) => {
      const onAbort = (): void => this.settle(waiter, interrupted());
      const waiter: Waiter = {
        pending: pendingApproval(request),
        resolve,
        dispose: () => signal.removeEventListener('abort', onAbort),
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
      this.changed();
    });
  }

  /**
   * The user's key about the request on screen. Returns the decision given, or null when that
   * request is no longer the one waiting or the key is not offered.
   */
  answer(shown: PendingApproval, answer: ApprovalAnswer, detail: AnswerDetail = {}): Decision | null {
    const waiter = this.waiters[0];
    if (!waiter || waiter.pending !== shown) return null;
    if (answer === 'allow-for-session' && !waiter.pending.offersAllow) return null;
    if (answer === 'allow-prefix' && (detail.prefix ?? []).length === 0) return null;
    if (answer === 'approve-edited' && (!waiter.pending.shell || detail.edited === undefined)) return null;
    if (answer !== 'deny' && !this.armed()) return null;
    const decision = decisionFor(waiter.pending, answer, detail);
    this.settle(waiter, decision);
    return decision;
  }

  private settle(waiter: Waiter, decision: Decision): void {
    const at = this.waiters.indexOf(waiter);
    if (at === -1) return;
    this.waiters.splice(at, 1);
    waiter.dispose();
    waiter.resolve(decision);
    this.changed();
  }

  private changed(): void {
    const next = this.waiters[0]?.pending ?? null;
    if (next !== this.snapshot) this.shownAtMs = this.now();
    this.snapshot = next;
    for (const listener of this.listeners) listener();
  }
}

function decisionFor(pending: PendingApproval, answer: ApprovalAnswer, detail: AnswerDetail): Decision {
  const { message, prefix, edited } = detail;
  switch (answer) {
    case 'deny':
      return message
        ? { approved: false, by: 'user', reason: 'denied at the prompt with a message', message }
        : { approved: false, by: 'user', reason: 'denied at the prompt' };
    case 'approve':
      return { approved: true, by: 'user', reason: 'approved once at the prompt' };
    case 'allow-for-session':
      return { approved: true, by: 'user', reason: `${pending.request.tool} allowed for this session at the prompt` };
    case 'allow-prefix':
      return {
        approved: true,
        by: 'user',
        reason: `approved at the prompt, and commands starting with \`${prefix!.join(' ')}\` allowed for this session`,
        allowsPrefix: prefix!,
      };
    case 'approve-edited':
      return { approved: true, by: 'user', reason: 'approved at the prompt as edited', edited: { subject: edited! } };
  }
}

function interrupted(): Decision {
  return { approved: false, by: 'interrupted', reason: 'interrupted by the user before it was approved' };
}

/**
 * The approver the CLI wires into the Agent's deps before the Agent is built, and hands to
 * `runTui` with the rest: `const approvals = createTuiApprover(); new Agent({ ..., approver:
 * approvals }, model); runTui({ ..., approvals })`.
 */
export function createTuiApprover(options: ApprovalQueueOptions = {}): ApprovalQueue {
  return new ApprovalQueue(options);
}
