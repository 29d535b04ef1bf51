import { describe, expect, it } from 'vitest';
import { inferPlan } from '../../../src/core/session/plan-inference';
import { withTaskState } from '../../../src/core/session/plan-nudges';
import { planFromInput, planSubject, updatePlanTool } from '../../../src/core/tools/builtin/update-plan';
import { ToolRegistry } from '../../../src/core/tools/registry';

function registry(): ToolRegistry {
  const tools = ToolRegistry.create({ interactiveApprover: false });
  tools.register(updatePlanTool);
  return tools;
}

describe('update_plan checks what the model sends', () => {
  it('refuses two steps in progress, an empty plan, an unknown status and a blank step, saying why', () => {
    const call = (args: unknown) => registry().parseCall('update_plan', JSON.stringify(args));
    const two = call({
      plan: [
        { step: 'a', status: 'in_progress' },
        { step: 'b', status: 'in_progress' },
      ],
    });
    expect(two.ok).toBe(false);
    if (!two.ok) expect(two.message).toContain('at most one step may be in_progress');
    expect(call({ plan: [] }).ok).toBe(false);
    expect(call({ plan: [{ step: 'a', status: 'done' }] }).ok).toBe(false);
    expect(call({ plan: [{ step: '   ', status: 'pending' }] }).ok).toBe(false);
    expect(call({ plan: [{ step: 'a', status: 'pending', extra: 1 }] }).ok).toBe(false);
    expect(call({ plan: Array.from({ length: 51 }, () => ({ step: 'a', status: 'pending' })) }).ok).toBe(false);
    expect(call({ explanation: 'why', plan: [{ step: 'a', status: 'completed' }] }).ok).toBe(true);
  });

  it('reads a stored plan back only when it still has the shape a call was checked against', () => {
    expect(planFromInput({ plan: [{ step: ' a ', status: 'pending' }] })).toEqual({
      plan: [{ step: 'a', status: 'pending' }],
      explanation: null,
    });
    expect(planFromInput(null)).toBeNull();
    expect(planFromInput({ plan: 'a' })).toBeNull();
    expect(planFromInput({ plan: [{ step: 'a', status: 'weird' }] })).toBeNull();
    expect(
      planFromInput({
        plan: [
          { step: 'a', status: 'in_progress' },
          { step: 'b', status: 'in_progress' },
        ],
      }),
    ).toBeNull();
  });

  it('shows its steps with their marks in the transcript, and tells the model in one line', async () => {
    const output = await updatePlanTool.execute(
      {
        explanation: 'tests first',
        plan: [
          { step: 'a', status: 'completed' },
          { step: 'b', status: 'in_progress' },
          { step: 'c', status: 'pending' },
        ],
      },
      { workspaceRoot: '/', signal: new AbortController().signal, callId: 'c1' },
    );
    expect(output).toEqual({
      ok: true,
      content: 'Plan updated (step 2/3: b).',
      display: { kind: 'text', text: 'tests first\n[x] a\n[>] b\n[ ] c' },
    });
  });

  it('names the step in progress in its one line', () => {
    expect(
      planSubject([
        { step: 'a', status: 'completed' },
        { step: 'b', status: 'in_progress' },
      ]),
    ).toBe('step 2/2: b');
    expect(planSubject([{ step: 'a', status: 'completed' }])).toBe('1 step, all completed');
  });
});

describe('a plan inferred from the text', () => {
  it('reads the list under PLAN: with the first item as the step in progress', () => {
    expect(inferPlan('Sure.\nPLAN:\n1. read\n2) test\n- fix\n\nThen more prose.')).toEqual([
      { step: 'read', status: 'in_progress' },
      { step: 'test', status: 'pending' },
      { step: 'fix', status: 'pending' },
    ]);
    expect(inferPlan('**Plan:** just look')).toEqual([{ step: 'just look', status: 'in_progress' }]);
  });

  it('reads a checklist: checked items completed, the first open one in progress', () => {
    expect(inferPlan('- [x] one\n- [X] two\n- [ ] three\n- [ ] four')).toEqual([
      { step: 'one', status: 'completed' },
      { step: 'two', status: 'completed' },
      { step: 'three', status: 'in_progress' },
      { step: 'four', status: 'pending' },
    ]);
  });

  it('finds nothing in ordinary text, in a list without PLAN:, or in a word that only starts like it', () => {
    expect(inferPlan('')).toBeNull();
    expect(inferPlan('Here are options:\n- a\n- b')).toBeNull();
    expect(inferPlan('PLANE: fly\n- a')).toBeNull();
    expect(inferPlan('The plan: is vague')).toBeNull();
  });
});

describe('the task state put back in a request', () => {
  it('goes before the newest tool round, never between a call and its result', () => {
    const messages = [
      { role: 'system' as const, content: 's' },
      { role: 'user' as const, content: 'u' },
      { role: 'assistant' as const, content: '', toolCalls: [{ id: 'c1', name: 'x', arguments: '{}' }] },
      { role: 'tool' as const, toolCallId: 'c1', content: 'r' },
    ];
    expect(withTaskState(messages, 'T').map((m) => m.role)).toEqual(['system', 'user', 'user', 'assistant', 'tool']);
    const afterNudge = [...messages, { role: 'user' as const, content: '[tole] nudge' }];
    expect(withTaskState(afterNudge, 'T').at(-1)).toEqual({ role: 'user', content: 'T' });
  });
});
