import { machineState } from '../../core/machine/machine';
import { familyOf, NS } from '../../core/registers/namespaces';
import { currentHead, lanes } from '../../core/session/cursor';
import type { TaskState } from '../../core/session/task-state';
import type { PendingIntent } from '../../core/session/tool-step';
import type { SessionStore } from '../../core/storage/session-store';
import { previewGlyph } from '../tree/entry-glyph';
import { oneLine } from '../text/format';
import { planHeading, planStepLines } from './plan-lines';
import { seg, truncateLine, type Line } from '../style/styled-line';
import { visibleRow } from '../text/visible-text';

const LABEL_WIDTH = 8;

function label(text: string): ReturnType<typeof seg> {
  return seg(text.padEnd(LABEL_WIDTH), 'muted');
}

function compactJson(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return oneLine(JSON.stringify(value) ?? String(value));
  } catch {
    return String(value);
  }
}

function pendingLines(store: SessionStore): Line[] {
  const pending = store.registers.entries(NS.pending);
  if (pending.length === 0) return [[label('pending'), seg('none', 'faint')]];
  return pending.map(([callId, cell], i) => {
    const intent = cell.value as PendingIntent;
    const entry = store.entry(intent.entryId);
    const subject = entry?.type === 'tool_intent' ? entry.payload.subject : '';
    const risk = entry?.type === 'tool_intent' ? entry.payload.risk : null;
    return [
      label(i === 0 ? 'pending' : ''),
      seg(intent.tool, 'toolName'),
      seg(` ${subject}`, 'text'),
      ...(risk ? [seg(` ${risk}`, risk)] : []),
      seg(intent.approved ? ' approved' : ' awaiting approval', intent.approved ? 'ok' : 'warn'),
      seg(` ${callId}`, 'faint'),
    ];
  });
}

function opLines(store: SessionStore): Line[] {
  const state = machineState(store);
  const out: Line[] = [[label('op'), seg(state.pc, 'accentBold'), seg(`  seq ${state.seq}`, 'faint')]];
  for (const [callId, cell] of store.registers.entries(NS.opState)) {
    const value = cell.value as { tool?: string; status?: string };
    out.push([
      label(''),
      seg(value.tool ?? '?', 'tool'),
      seg(` ${value.status ?? compactJson(value)}`, 'text'),
      seg(` ${callId}`, 'faint'),
    ]);
  }
  return out;
}

function laneLines(store: SessionStore): Line[] {
  const head = currentHead(store);
  const all = lanes(store);
  if (all.length === 0) return [[label('lane'), seg(`${head.lane} (empty)`, 'faint')]];
  return all.map(({ lane, leaf }, i) => {
    const here = lane === head.lane;
    const entry = store.entry(leaf);
    const preview = entry ? previewGlyph(entry).text : '';
    return [
      label(i === 0 ? 'lane' : ''),
      seg(lane, here ? 'head' : 'text'),
      seg(` → ${leaf}`, 'muted'),
      ...(here && head.entryId !== leaf ? [seg(` (at ${head.entryId ?? 'root'})`, 'warn')] : []),
      ...(here ? [seg(' ◀', 'head')] : []),
      seg(`  ${preview}`, 'faint'),
    ];
  });
}

function factLines(store: SessionStore): Line[] {
  const out: Line[] = [];
  for (const namespace of store.registers.namespaces()) {
    if (familyOf(namespace) !== 'fact') continue;
    const short = namespace.slice('fact.'.length);
    for (const [key, cell] of store.registers.entries(namespace)) {
      out.push([
        label(out.length === 0 ? 'fact' : ''),
        seg(`${short}.${key}`, 'accent'),
        seg(` = ${compactJson(cell.value)}`, 'text'),
      ]);
    }
  }
  return out.length > 0 ? out : [[label('fact'), seg('none', 'faint')]];
}

/** The checked-out branch's plan: derived from its path, so it follows check-outs and replays. */
function planLines(task: TaskState): Line[] {
  const heading: Line = [label('plan'), seg(planHeading(task), task.plan.length === 0 ? 'faint' : 'accent')];
  return [heading, ...planStepLines(task, ' '.repeat(LABEL_WIDTH))];
}

/**
 * The registers pane: pending intents first (what a crash would resume), then the branch's plan,
 * op state, lanes, facts.
 */
export function registerLines(store: SessionStore, width: number, task: TaskState): Line[] {
  // One row per item: a line break or control in a subject or value is shown, never drawn.
  const sections = [...pendingLines(store), ...planLines(task), ...opLines(store), ...laneLines(store)];
  return [...sections, ...factLines(store)].map((line) =>
    truncateLine(
      line.map((s) => ({ ...s, text: visibleRow(s.text) })),
      width,
    ),
  );
}
