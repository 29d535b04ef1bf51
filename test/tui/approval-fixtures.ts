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

/** Resolves to 'pending' when the decision has not come within a few macrotasks. */
export async function settled(decision: Promise<Decision>): Promise<Decision | 'pending'> {
  return Promise.race([decision, new Promise<'pending'>((resolve) => setTimeout(() => resolve('pending'), 50))]);
}
