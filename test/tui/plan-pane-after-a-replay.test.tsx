import { afterEach, describe, expect, it } from 'vitest';
import { seededRandom, systemClock } from '../../src/core/clock';
import { checkout } from '../../src/core/session/cursor';
import { SessionStore } from '../../src/core/storage/session-store';
import { startHarness, toolCall } from '../core/hooks/agent-harness';
import { pane, renderScreen, type Screen } from './harness';

let screen: Screen | undefined;
afterEach(() => screen?.unmount());

const plan = (...statuses: string[]) =>
  toolCall('update_plan', {
    plan: statuses.map((status, i) => ({ step: ['read the code', 'write the tests', 'fix the bug'][i], status })),
  });

describe('the plan pane after a replay', () => {
  it('shows the finished plan of a reopened session, and an earlier entry its plan as it was there', async () => {
    const h = await startHarness({
      replies: [
        plan('in_progress', 'pending', 'pending'),
        plan('completed', 'in_progress', 'pending'),
        plan('completed', 'completed', 'completed'),
        { text: 'all done' },
      ],
    });
    await h.run('fix it');
    const firstPlan = h.pathOf('tool_result')[0]!.id;
    const file = h.store.path;
    h.store.close();

    const store = SessionStore.open(file, { clock: systemClock, random: seededRandom(4) });
    screen = renderScreen({ store, columns: 160, rows: 45 });
    const done = pane(await screen.waitFor('3/3 done'), 'registers');
    expect(done).toContain('✓ read the code');
    expect(done).toContain('✓ fix the bug');
    expect(done).not.toContain('▶');
    expect(screen.frame()).toContain('plan 3/3 done');
    screen.unmount();

    checkout(store, firstPlan);
    screen = renderScreen({ store, columns: 160, rows: 45 });
    const early = pane(await screen.waitFor('0/3 done'), 'registers');
    expect(early).toContain('▶ read the code');
    expect(screen.frame()).toContain('step 1/3 · read the code');
    store.close();
  });
});
