import type { ApprovalRequest, Approver, Decision } from '../../src/core/approval/approver';

/** An approver that answers every request with `answer` (after `before`), keeping what it was asked. */
export function answering(
  answer: Decision,
  before: () => void = () => {},
): { approver: Approver; asked: ApprovalRequest[] } {
  const asked: ApprovalRequest[] = [];
  return {
    asked,
    approver: {
      decide: async (request) => {
        asked.push(request);
        before();
        return answer;
      },
    },
  };
}
