import { sessionName } from './session-name';
import type { SessionStore } from '../storage/session-store';
import type { AnyEntry } from '../tree/entry-types';
import { currentHead, laneLeaf, lanes } from './cursor';
import { checkpointedEntries, checkpointOf } from './restore-files';
import { taskStateOf, type TaskState } from './task-state';
import { childrenOf, readChild } from './child-sessions';
import { systemClock, type Clock } from '../clock';
import { entryMarkdown } from './entry-markdown';

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
 * The line under the title names the branch and the ones left out.
 */
export function exportMarkdown(store: SessionStore, leafId: string | null, clock: Clock = systemClock): string {
  const path = store.tree.pathTo(leafId);
  const parts = [...titleLines(store), branchLine(store, leafId), ...entriesMarkdown(store, path)];
  const plan = planMarkdown(taskStateOf(path));
  if (plan !== null) parts.push(plan);
  parts.push(...checkpointsMarkdown(store));
  return withChildren(`${parts.join('\n\n')}\n`, store, path, clock);
}

/**
 * Markdown of every branch (`tole export --all`): the first whole, each later one from the entry
 * where it forks, each under its own heading with the plan at its end; then the checkpoints and
 * every sub-agent the tree started.
 */
export function exportAllBranchesMarkdown(store: SessionStore, clock: Clock = systemClock): string {
  const all = lanes(store);
  const names = all.map((l) => `\`${l.lane}\`${isCheckedOut(store, l) ? ' (checked out)' : ''}`);
  const parts = [
    ...titleLines(store),
    all.length === 0
      ? 'Every branch: none yet, the session has no entries'
      : `Every branch (${all.length}): ${names.join(', ')}`,
  ];
  const seen = new Map<string, string>();
  for (const lane of all) {
    const path = store.tree.pathTo(lane.leaf);
    const forkAt = path.findLastIndex((e) => seen.has(e.id));
    const fork = forkAt < 0 ? '' : ` · forks from entry ${path[forkAt]!.id} of \`${seen.get(path[forkAt]!.id)}\``;
    const own = path.slice(forkAt + 1);
    const body = own.length === 0 ? ['(no entries of its own)'] : entriesMarkdown(store, own);
    const plan = planMarkdown(taskStateOf(path));
    const section = [`# Branch \`${lane.lane}\`${isCheckedOut(store, lane) ? ' (checked out)' : ''}${fork}`, ...body];
    if (plan !== null) section.push(plan);
    parts.push(demote(section.join('\n\n')));
    for (const entry of path) if (!seen.has(entry.id)) seen.set(entry.id, lane.lane);
  }
  parts.push(...checkpointsMarkdown(store));
  return withChildren(`${parts.join('\n\n')}\n`, store, store.tree.all(), clock);
}

function titleLines(store: SessionStore): string[] {
  const header = store.header;
  const name = sessionName(store);
  return [
    `# tole session ${header.id}${name ? `: ${name}` : ''}`,
    `Directory: \`${header.cwd}\` · started ${new Date(header.createdAt).toISOString()}`,
  ];
}

/** Which branch a one-path export holds, and the branches it leaves out with how to get them. */
function branchLine(store: SessionStore, leafId: string | null): string {
  const all = lanes(store);
  const owner = all.find((l) => l.leaf === leafId);
  const head = currentHead(store);
  const checkedOut = head.entryId === leafId ? ' (checked out)' : '';
  let where: string;
  if (owner !== undefined) where = `Branch \`${owner.lane}\`${checkedOut}`;
  else if (leafId === null) where = 'No entries yet';
  else {
    const on = all.filter((l) => store.tree.pathTo(l.leaf).some((e) => e.id === leafId)).map((l) => `\`${l.lane}\``);
    where = `The path to entry ${leafId}${checkedOut}${on.length > 0 ? `, on ${on.join(', ')}` : ''}`;
  }
  const others = all.filter((l) => l !== owner).map((l) => `\`${l.lane}\``);
  if (others.length === 0) return `${where}: the only branch`;
  const more = `${others.length} ${others.length === 1 ? 'branch' : 'branches'}`;
  return `${where}; ${more} not in this export (${others.join(', ')}): \`tole export ${store.header.id} --all\` exports every branch`;
}

function isCheckedOut(store: SessionStore, lane: { lane: string; leaf: string }): boolean {
  const head = currentHead(store);
  return head.lane === lane.lane && head.entryId === lane.leaf;
}

function entriesMarkdown(store: SessionStore, entries: readonly AnyEntry[]): string[] {
  return entries.map((entry) => entryMarkdown(entry, store)).filter((md): md is string => md !== null);
}

function checkpointsMarkdown(store: SessionStore): string[] {
  const checkpoints = checkpointList(store);
  if (checkpoints.length === 0) return [];
  const rows = checkpoints.map((c) => `- \`${c.checkpoint.slice(0, 12)}\` · entry ${c.entryId} · ${c.what}`);
  return [
    `## Checkpoints (every branch)\n\nThe workspace files as they were before each of these; \`tole restore ${store.header.id} --entry ENTRY\` brings them back.\n\n${rows.join('\n')}`,
  ];
}

/** The export, then each sub-agent a `task` call among `entries` started, its headings one level down. */
function withChildren(own: string, store: SessionStore, entries: Iterable<AnyEntry>, clock: Clock): string {
  const children = childrenOf(store, entries).map((ref) => {
    const title = `## Sub-agent ${ref.sessionId}${ref.agent === null ? '' : ` (${ref.agent})`}, for call ${ref.callId}`;
    const body = readChild(ref, clock, (child) => exportMarkdown(child, currentHead(child).entryId, clock));
    return body === null ? `${title}\n\n(its session file is not there)` : `${title}\n\n${demote(body)}`;
  });
  return children.length === 0 ? own : `${own}\n${children.join('\n\n')}\n`;
}

/** Headings one level down (`#` -> `##`), outside fenced blocks (a fence of four backticks or more, closed by one as long: entry-markdown.ts). */
function demote(markdown: string): string {
  let fence = '';
  return markdown
    .trimEnd()
    .split('\n')
    .map((line) => {
      const run = /^`{4,}$/.exec(line)?.[0];
      if (run !== undefined && (fence === '' || run === fence)) fence = fence === '' ? run : '';
      return fence === '' && line.startsWith('#') ? `#${line}` : line;
    })
    .join('\n');
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
