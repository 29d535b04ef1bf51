import { completedSteps, type TaskState } from '../../core/session/task-state';
import type { PlanStatus } from '../../core/tools/builtin/update-plan';
import { truncate } from '../text/cell-width';
import { oneLine } from '../text/format';
import { seg, truncateLine, type Line } from '../style/styled-line';
import type { StyleName } from '../style/styles';
import { visibleRow } from '../text/visible-text';

const MARK: Readonly<Record<PlanStatus, string>> = { completed: '✓', in_progress: '▶', pending: '○' };
const MARK_STYLE: Readonly<Record<PlanStatus, StyleName>> = { completed: 'ok', in_progress: 'head', pending: 'muted' };
/** The status bar gives the step's text at most this many cells. */
const STATUS_STEP_CELLS = 28;

/** "step 3/7 · writing tests" (the step in progress, else the first pending), or null without a plan. */
export function planStatus(state: TaskState): string | null {
  if (state.plan.length === 0) return null;
  const total = state.plan.length;
  if (state.current === null) return `plan ${total}/${total} done`;
  const step = visibleRow(oneLine(state.plan[state.current]!.step));
  return `step ${state.current + 1}/${total} · ${truncate(step, STATUS_STEP_CELLS)}`;
}

/** One line per step with its mark, the step in progress highlighted; where the plan came from. */
export function planStepLines(state: TaskState, indent = ''): Line[] {
  return state.plan.map((step, i) => {
    const here = i === state.current;
    return [
      seg(indent),
      seg(`${MARK[step.status]} `, MARK_STYLE[step.status]),
      seg(oneLine(step.step), here ? 'head' : step.status === 'completed' ? 'faint' : 'text'),
    ];
  });
}

/** The plan's heading: how far it is, and whether it was inferred from the model's text. */
export function planHeading(state: TaskState): string {
  if (state.plan.length === 0) return 'no plan yet';
  const how = state.source === 'inferred' ? ' · inferred from PLAN:/checklist text' : '';
  return `${completedSteps(state)}/${state.plan.length} done${how}`;
}

/** The plan full size (the overlay): heading, every step, why, the last action and the round counts. */
function planOverlayLines(state: TaskState): Line[] {
  const lines: Line[] = [[seg(planHeading(state), 'accentBold')], []];
  if (state.plan.length === 0)
    lines.push([seg('The model has not set a plan on this branch (it keeps one with update_plan).', 'muted')]);
  lines.push(...planStepLines(state, '  '));
  if (state.explanation) lines.push([], [seg('why  ', 'muted'), seg(oneLine(state.explanation), 'text')]);
  const last = state.lastAction;
  if (last) {
    const outcome: StyleName = last.outcome === 'ok' ? 'ok' : 'warn';
    lines.push(
      [],
      [
        seg('last ', 'muted'),
        seg(last.tool, 'toolName'),
        seg(last.subject ? ` ${oneLine(last.subject)}` : '', 'text'),
        seg(` ${last.outcome}`, outcome),
      ],
      [seg('     '), seg(oneLine(last.result), 'faint')],
    );
  }
  lines.push(
    [],
    [seg(`${state.rounds} tool rounds on this branch, ${state.roundsSincePlanChange} since the plan changed`, 'faint')],
  );
  return lines;
}

/** The overlay's rows within `width`: a control or line break in the model's words is shown, never drawn. */
export function planOverlayRows(state: TaskState, width: number): Line[] {
  return planOverlayLines(state).map((line) =>
    truncateLine(
      line.map((s) => ({ ...s, text: visibleRow(s.text) })),
      width,
    ),
  );
}
