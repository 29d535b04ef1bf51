import { PLAN_MAX_STEPS, PLAN_STEP_MAX_CHARS, type PlanStep } from '../tools/builtin/update-plan';

/** A checklist line: `- [ ] step`, `* [x] step`, `1. [X] step`. */
const CHECKLIST = /^\s*(?:[-*+]|\d+[.)])\s+\[([ xX])\]\s+(.+?)\s*$/;
/** A list item under a `PLAN:` line: `- step`, `1. step`, `2) step`. */
const LIST_ITEM = /^\s*(?:[-*+]|\d+[.)])\s+(.+?)\s*$/;
const MAY_HOLD_A_PLAN = /\[[ xX]\]|plan/i;
const PLAN_HEADING = /^\s*(?:#+\s*)?\**PLAN\**\s*:\s*\**\s*(.*)$/i;

/**
 * A plan the model wrote in its text rather than with update_plan: the list under a `PLAN:` line,
 * or a Markdown checklist. Checked items are completed, the first unchecked one is taken as in
 * progress (the model's next step), the rest pending. Null when the text holds no such list.
 */
export function inferPlan(text: string): PlanStep[] | null {
  // Runs on every answer of a path each time its task state is derived: most hold neither.
  if (!MAY_HOLD_A_PLAN.test(text)) return null;
  const lines = text.split('\n');
  const checklist = checklistOf(lines);
  if (checklist.length > 0) return withCurrent(checklist);
  const listed = planBlockOf(lines);
  return listed.length > 0 ? withCurrent(listed) : null;
}

function checklistOf(lines: readonly string[]): { step: string; done: boolean }[] {
  const items: { step: string; done: boolean }[] = [];
  for (const line of lines) {
    const match = CHECKLIST.exec(line);
    if (match) items.push({ step: match[2]!, done: match[1] !== ' ' });
  }
  return items;
}

/** The list right under the newest `PLAN:` line (or the heading's own text, when it has no list). */
function planBlockOf(lines: readonly string[]): { step: string; done: boolean }[] {
  let at = -1;
  for (let i = lines.length - 1; i >= 0 && at === -1; i--) if (PLAN_HEADING.test(lines[i]!)) at = i;
  if (at === -1) return [];
  const items: { step: string; done: boolean }[] = [];
  for (const line of lines.slice(at + 1)) {
    if (line.trim() === '' && items.length === 0) continue;
    const match = LIST_ITEM.exec(line);
    if (!match) break;
    items.push({ step: match[1]!, done: false });
  }
  if (items.length > 0) return items;
  const inline = PLAN_HEADING.exec(lines[at]!)![1]!.trim();
  return inline === '' ? [] : [{ step: inline, done: false }];
}

function withCurrent(items: readonly { step: string; done: boolean }[]): PlanStep[] {
  const current = items.findIndex((item) => !item.done);
  return items.slice(0, PLAN_MAX_STEPS).map((item, i) => ({
    step: item.step.slice(0, PLAN_STEP_MAX_CHARS),
    status: item.done ? 'completed' : i === current ? 'in_progress' : 'pending',
  }));
}
