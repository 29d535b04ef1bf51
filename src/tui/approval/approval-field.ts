import type { EditorState } from '../prompt/line-editor';

/**
 * A field open in the approval box, for the call with `callId`: `deny` the message the call is
 * denied with (`n`, `d`); `prefix` the command prefix `p` offers, waiting to be confirmed; `edit`
 * the command as the user edits it (`e`) before approving it.
 */
export type ApprovalField =
  | { readonly kind: 'deny'; readonly callId: string; readonly value: string }
  | { readonly kind: 'prefix'; readonly callId: string; readonly prefix: readonly string[] }
  | { readonly kind: 'edit'; readonly callId: string; readonly editor: EditorState };
