/** Approval requests and a helper shared by the approval prompt tests. */
import type { ApprovalRequest, Decision } from '../../src/core/approval/approver';

export const writeRequest: ApprovalRequest = {
  callId: 'call_w',
  tool: 'write_file',
  subject: 'notes/todo.md',
  input: { path: 'notes/todo.md', content: '- ship the screen\n' },
  risk: 'Write',
  reason: 'writes a file',
};

export const destructiveRequest: ApprovalRequest = {
  callId: 'call_d',
  tool: 'bash',
  subject: 'rm -rf build/',
  input: { command: 'rm -rf build/' },
  risk: 'Destructive',
  reason: '`rm -r` removes a directory tree',
};

/**
 * The decision the keys pressed so far gave, or 'pending'. A key answers inside its own handler
 * (ApprovalQueue.answer resolves the waiting promise there, and the screen tests' stdin hands a
 * key to Ink as it is written), so once `press` has returned, a decision the keys made is already
 * resolved: racing it against a promise resolved now tells which, without waiting on a clock.
 */
export async function settled(decision: Promise<Decision>): Promise<Decision | 'pending'> {
  return Promise.race([decision, Promise.resolve('pending' as const)]);
}
