import type { EntryPayloads } from '../tree/entry-types';
import { NS } from '../registers/namespaces';
import { sessionName } from './session-name';
import type { SessionStore } from '../storage/session-store';
import type { AnyEntry } from '../tree/entry-types';
import { currentHead, laneLeaf, lanes } from './cursor';
import { checkpointedEntries, checkpointOf } from './restore-files';
import { taskStateOf, type TaskState } from './task-state';
import { childrenOf, readChild } from './child-sessions';
import { systemClock, type Clock } from '../clock';
import type { Attachment } from '../tools/attachment';
import { attachmentNote, attachmentsOf } from './user-attachments';

/** The leaf an export starts from: a named lane, an entry, or the checked-out head. */
export function exportLeaf(store: SessionStore, options: { branch?: string; entry?: string }): string | null {
  if (options.entry !== undefined) {
    if (!store.tree.has(options.entry)) throw new Error(`no entry ${options.entry} in this session`);
    return options.entry;
  }
  if (options.branch !== undefined) {
    const leaf = laneLeaf(store, options.branch);
    if (leaf === null)
      throw new Error(
        `no lane "${options.branch}" (lanes: ${
          lanes(store)
            .map((l) => l.lane)
            .join(', ') || 'none'
        })`,
      );
    return leaf;
  }
  return currentHead(store).entryId;
}

const FENCE = '````';

function entryMarkdown(entry: AnyEntry, store: SessionStore): string | null {
  const label = store.registers.get<string>(NS.label, entry.id);
  const tag = label ? ` · ${label}` : '';
  switch (entry.type) {
    case 'user':
      return `## You${tag}\n\n${entry.payload.text}${attachmentsMarkdown(attachmentsOf(entry))}`;
    case 'assistant': {
      const calls = entry.payload.toolCalls.map((c) => `- calls \`${c.name}\` ${c.arguments}`).join('\n');
      const { refusal } = entry.payload;
      const refused = refusal
        ? `${entry.payload.text ? '\n\n' : ''}> **refused:** ${refusal.replace(/\n/g, '\n> ')}`
        : '';
      return `## tole (${entry.payload.model})${tag}\n\n${entry.payload.text}${refused}${calls ? `\n\n${calls}` : ''}`;
    }
    case 'tool_intent': {
      const approval = entry.payload.approval;
      const how = approval
        ? approval.approved
          ? `approved by ${approval.by}${approval.rule ? ` (${approval.rule})` : ''}`
          : `denied (${approval.by})`
        : 'asked the user';
      const checkpoint = entry.payload.checkpoint ? ` · checkpoint \`${entry.payload.checkpoint.slice(0, 12)}\`` : '';
      if (entry.payload.by === 'user')
        return `## You ran${tag}\n\n\`!${entry.payload.subject}\` · ${entry.payload.risk} · ${how}${checkpoint}`;
      return `**${entry.payload.tool}** \`${entry.payload.subject}\` · ${entry.payload.risk} · ${how}${checkpoint}`;
    }
    case 'approval':
      return approvalMarkdown(entry.payload);
    case 'tool_result':
      return `### ${entry.payload.tool} → ${entry.payload.outcome}\n\n${FENCE}\n${entry.payload.content}\n${FENCE}`;
    case 'summary':
      return `## Summary of the conversation before this point\n\n${entry.payload.text}`;
    case 'notice':
      return `> ${entry.payload.level}: ${entry.payload.text.replace(/\n/g, '\n> ')}`;
    case 'restore':
      return `**restore files** to entry ${entry.payload.targetEntryId} (checkpoint \`${entry.payload.target.slice(0, 12)}\`)`;
    case 'restore_result':
      return `*files restored → ${entry.payload.outcome}: ${entry.payload.content}*`;
  }
}

/** A prompt's attachments as the export shows them: each path, its size (cut or whole), and the text the model read. */
function attachmentsMarkdown(attachments: readonly Attachment[]): string {
  return attachments
    .map((a) => `\n\n**attached** \`${a.path}\` (${attachmentNote(a)})\n\n${FENCE}\n${a.text}\n${FENCE}`)
    .join('');
}

/** An approval as the export says it: who decided, what the user said, the prefix kept, the command as edited. */
function approvalMarkdown(payload: EntryPayloads['approval']): string {
  const { decision, checkpoint } = payload;
  const parts = [`*${decision.approved ? 'approved' : 'denied'} by ${decision.by}*`];
  if (!decision.approved && decision.message) parts[0] += `: ${decision.message}`;
  if (decision.approved && decision.allowsPrefix)
    parts.push(`allowed \`${decision.allowsPrefix.join(' ')}\` for the session`);
  if (decision.approved && decision.edited)
    parts.push(
      `edited by the user to run ${decision.edited.risk ?? ''} \`${decision.edited.subject.replace(/\n/g, '⏎')}\``,
    );
  if (checkpoint) parts.push(`checkpoint \`${checkpoint.slice(0, 12)}\``);
  return parts.join(' · ');
}

/** Every checkpoint the session names, oldest first: which entry, and before what. */
export function checkpointList(store: SessionStore): { entryId: string; checkpoint: string; what: string }[] {
  return checkpointedEntries(store).map((entry) => ({
    entryId: entry.id,
    checkpoint: checkpointOf(entry)!,
    what: checkpointWhat(entry, store),
  }));
}

function checkpointWhat(entry: AnyEntry, store: SessionStore): string {
  if (entry.type === 'tool_intent') return `before ${entry.payload.tool} ${entry.payload.subject}`;
  if (entry.type === 'restore') return `before restoring files to ${entry.payload.targetEntryId}`;
  if (entry.type === 'approval') {
    // The call it approves is on its own path, the nearest intent with its id: call ids repeat
    // across turns and branches (a provider may number them from 0 in every answer).
    const intent = store.tree
      .pathTo(entry.id)
      .findLast((e) => e.type === 'tool_intent' && e.payload.callId === entry.payload.callId);
    return intent?.type === 'tool_intent'
      ? `before ${intent.payload.tool} ${intent.payload.subject}`
      : 'before an approved call';
  }
  return 'checkpoint';
}

/**
 * Markdown of one path, root to `leafId`, then each sub-agent a `task` call on it started (its
 * own main path, its headings one level down), so that the export holds what the children did.
 */
export function exportMarkdown(store: SessionStore, leafId: string | null, clock: Clock = systemClock): string {
  const own = pathMarkdown(store, leafId);
  const children = childrenOf(store, store.tree.pathTo(leafId)).map((ref) => {
    const title = `## Sub-agent ${ref.sessionId}${ref.agent === null ? '' : ` (${ref.agent})`}, for call ${ref.callId}`;
    const body = readChild(ref, clock, (child) => exportMarkdown(child, currentHead(child).entryId, clock));
    return body === null ? `${title}\n\n(its session file is not there)` : `${title}\n\n${demote(body)}`;
  });
  return children.length === 0 ? own : `${own}\n${children.join('\n\n')}\n`;
}

/** Headings one level down (`#` -> `##`), outside fenced blocks. */
function demote(markdown: string): string {
  let fenced = false;
  return markdown
    .trimEnd()
    .split('\n')
    .map((line) => {
      if (line.startsWith(FENCE)) fenced = !fenced;
      return !fenced && line.startsWith('#') ? `#${line}` : line;
    })
    .join('\n');
}

function pathMarkdown(store: SessionStore, leafId: string | null): string {
  const header = store.header;
  const name = sessionName(store);
  const parts = [
    `# tole session ${header.id}${name ? `: ${name}` : ''}`,
    `Directory: \`${header.cwd}\` · started ${new Date(header.createdAt).toISOString()}`,
  ];
  for (const entry of store.tree.pathTo(leafId)) {
    const md = entryMarkdown(entry, store);
    if (md) parts.push(md);
  }
  const plan = planMarkdown(taskStateOf(store.tree.pathTo(leafId)));
  if (plan !== null) parts.push(plan);
  const checkpoints = checkpointList(store);
  if (checkpoints.length > 0) {
    const rows = checkpoints.map((c) => `- \`${c.checkpoint.slice(0, 12)}\` · entry ${c.entryId} · ${c.what}`);
    parts.push(
      `## Checkpoints (every branch)\n\nThe workspace files as they were before each of these; \`tole restore ${header.id} --entry ENTRY\` brings them back.\n\n${rows.join('\n')}`,
    );
  }
  return `${parts.join('\n\n')}\n`;
}

/**
 * The whole tree as one JSON document: header, entries, registers, lanes, the usage ledger, and
 * each sub-agent's own document (`subAgents`, by the call that started it).
 */
export function exportJson(store: SessionStore, clock: Clock = systemClock): string {
  return `${JSON.stringify(exportDocument(store, clock), null, 2)}\n`;
}

function exportDocument(store: SessionStore, clock: Clock): Record<string, unknown> {
  const registers: Record<string, Record<string, unknown>> = {};
  for (const ns of store.registers.namespaces()) {
    registers[ns] = Object.fromEntries(store.registers.entries(ns).map(([key, cell]) => [key, cell.value]));
  }
  const document = {
    header: store.header,
    entries: [...store.tree.all()],
    registers,
    lanes: lanes(store),
    head: currentHead(store),
    usage: store.usage,
    checkpoints: checkpointList(store),
    plans: plansPerLane(store),
    subAgents: childrenOf(store, store.tree.all()).map((ref) => ({
      callId: ref.callId,
      sessionId: ref.sessionId,
      agent: ref.agent,
      session: readChild(ref, clock, (child) => exportDocument(child, clock)),
    })),
  };
  return document;
}

/** The plan at the end of the exported path, as a checklist; null when the path has none. */
function planMarkdown(state: TaskState): string | null {
  if (state.plan.length === 0) return null;
  const how = state.source === 'inferred' ? ' (inferred from the PLAN:/checklist lines of the text)' : '';
  const marks = { completed: '[x]', in_progress: '[>]', pending: '[ ]' } as const;
  const rows = state.plan.map((s, i) => `- ${marks[s.status]} ${s.step}${i === state.current ? ' ← current' : ''}`);
  const why = state.explanation ? `\n\n${state.explanation}` : '';
  return `## Plan at the end of this branch${how}\n\n${rows.join('\n')}${why}`;
}

/** Each lane's task state at its leaf: the plan per branch. */
function plansPerLane(store: SessionStore): { lane: string; leaf: string; taskState: TaskState }[] {
  return lanes(store).map(({ lane, leaf }) => ({ lane, leaf, taskState: taskStateOf(store.tree.pathTo(leaf)) }));
}
