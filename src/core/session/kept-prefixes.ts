/**
 * The command prefixes a session kept (`p` at the approval box), put in force again when the
 * session is opened again (`tole -c`, `--resume`). Which count: the approval entries on the path
 * from the root to the checked-out head. A prefix kept on a branch the user has left was kept in
 * that branch's conversation, about that branch's calls, so it is not in force on another one.
 *
 * A record is data read from a file, not a keypress: each is checked as `p` itself would check it
 * now. It must be a user's approval naming the prefix as one or two words, of a call whose
 * intent is on the same path; the call (as the user edited it, when they did) is read again
 * through its tool's schema and classified afresh, and the policy keeps the prefix only when it
 * would offer exactly that prefix for that call today: a Write shell call that stays in the
 * sandbox, with a sandbox here. Anything else is refused, saying why, never trusted.
 */
import type { ApprovalPolicy } from '../approval/approval-policy';
import { visibleControls } from '../terminal-text';
import type { ToolRegistry } from '../tools/registry';
import type { AnyEntry, EntryPayloads } from '../tree/entry-types';
import type { TreeIndex } from '../tree/tree-index';
import { requestFor } from './call-request';

/** Bound on the approval records read for prefixes (beyond it the rest are refused as one). */
const MAX_PREFIX_RECORDS = 256;
/** Bound on one word of a recorded prefix: a real one is a command name or a subcommand. */
const MAX_WORD_CHARS = 64;

export interface KeptPrefixes {
  /** The prefixes put in force, in the order they were kept. */
  readonly restored: readonly string[];
  /** Why each refused record was refused, one line each, fit to show. */
  readonly refused: readonly string[];
}

/** The entry types restoreKeptPrefixes reads: it passes over every other entry of a path. */
const RECORD_TYPES: ReadonlySet<string> = new Set(['approval', 'tool_intent']);

/**
 * The entries of the path to `headId` that restoreKeptPrefixes reads (approvals and call intents,
 * root first), picked by the tree's type column: the others of a long session are not built.
 */
export function prefixRecordsTo(tree: Pick<TreeIndex, 'pathEntriesOfTypes'>, headId: string | null): AnyEntry[] {
  return tree.pathEntriesOfTypes(headId, RECORD_TYPES);
}

/**
 * Reads the prefixes kept on `path` (root first, whole or as prefixRecordsTo picks it: the same
 * answer) and keeps in `policy` those it would offer now.
 */
export function restoreKeptPrefixes(
  path: readonly AnyEntry[],
  tools: Pick<ToolRegistry, 'get'>,
  policy: Pick<ApprovalPolicy, 'keepPrefix'>,
): KeptPrefixes {
  const intents = new Map<string, EntryPayloads['tool_intent']>();
  const restored: string[] = [];
  const refused: string[] = [];
  let records = 0;
  for (const entry of path) {
    if (entry.type === 'tool_intent') intents.set(entry.payload.callId, entry.payload);
    if (entry.type !== 'approval' || !recordsPrefix(entry.payload)) continue;
    if (++records > MAX_PREFIX_RECORDS) {
      refused.push(`more than ${MAX_PREFIX_RECORDS} prefix records on this path: the rest were not read`);
      break;
    }
    const checked = checkRecord(entry.payload, intents, tools, policy);
    if (checked.ok) {
      if (!restored.includes(checked.prefix)) restored.push(checked.prefix);
    } else refused.push(visibleControls(`${checked.prefix}: ${checked.why}`));
  }
  return { restored, refused };
}

/** Whether an approval record names a prefix at all (a damaged one included). */
function recordsPrefix(payload: EntryPayloads['approval']): boolean {
  const decision: unknown = payload?.decision;
  return typeof decision === 'object' && decision !== null && 'allowsPrefix' in decision;
}

type Checked = { ok: true; prefix: string } | { ok: false; prefix: string; why: string };

function checkRecord(
  payload: EntryPayloads['approval'],
  intents: ReadonlyMap<string, EntryPayloads['tool_intent']>,
  tools: Pick<ToolRegistry, 'get'>,
  policy: Pick<ApprovalPolicy, 'keepPrefix'>,
): Checked {
  const decision = payload.decision as unknown as Record<string, unknown>;
  const words = prefixWords(decision['allowsPrefix']);
  if (!words) return { ok: false, prefix: 'a prefix record', why: 'it is damaged (not one or two words)' };
  const prefix = words.join(' ');
  const shown = `\`${prefix}\``;
  if (decision['approved'] !== true || decision['by'] !== 'user')
    return { ok: false, prefix: shown, why: 'the record is not a user approval at the prompt' };
  const intent = typeof payload.callId === 'string' ? intents.get(payload.callId) : undefined;
  if (!intent) return { ok: false, prefix: shown, why: 'the call it was kept for is not on this path' };
  const tool = tools.get(intent.tool);
  if (!tool) return { ok: false, prefix: shown, why: `the tool ${String(intent.tool)} is not here` };
  const edited = decision['edited'] as { input?: unknown } | undefined;
  const input = edited?.input === undefined ? intent.input : edited.input;
  const parsed = tool.inputSchema.safeParse(input);
  if (!parsed.success) return { ok: false, prefix: shown, why: 'the call it was kept for is not a valid call' };
  const described = requestFor(tool, parsed.data, intent.callId);
  if (!described.ok) return { ok: false, prefix: shown, why: described.message };
  const kept = policy.keepPrefix(described.request, words);
  return kept.ok ? { ok: true, prefix } : { ok: false, prefix: shown, why: kept.why };
}

/** The words of a recorded prefix, or null when the record is not one (`p` keeps one or two words). */
function prefixWords(value: unknown): readonly string[] | null {
  if (!Array.isArray(value) || value.length === 0 || value.length > 2) return null;
  const words = value.filter((w): w is string => typeof w === 'string' && w !== '' && w.length <= MAX_WORD_CHARS);
  return words.length === value.length ? words : null;
}
