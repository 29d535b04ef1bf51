/** What the hook tests hand a hook: the payload of a preToolUse for a write_file call. */
import type { HookPayload } from '../../src/core/hooks/hook-payload';

export const WRITE_FILE_PRE_TOOL_USE: HookPayload = {
  event: 'preToolUse',
  session_id: 's-1',
  cwd: '/w',
  model: 'm',
  tool: 'write_file',
  risk: 'Write',
  subject: 'a.txt',
  input: { path: 'a.txt' },
};
