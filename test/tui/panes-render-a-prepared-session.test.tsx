import { afterEach, describe, expect, it } from 'vitest';
import { pane, renderScreen, type Screen } from './harness';
import { prepareSession } from './session-fixture';

let screen: Screen | undefined;
afterEach(() => screen?.unmount());

describe('the panes of a prepared session', () => {
  it('show the tree with its branch, the checked-out path, usage, registers and the status bar', async () => {
    const { store, ids } = prepareSession();
    screen = renderScreen({ store });
    const frame = await screen.waitFor('branches');

    // Tree: one row per entry, the branch nested, sibling places, the head marked.
    expect(frame).toMatch(/tree · 2 branches ─+ 11 entries/);
    expect(frame).toMatch(/├─● fix|├─● try a lock|├─◆ The race/);
    expect(frame).toContain('[1/2]');
    expect(frame).toContain('[2/2]');
    expect(frame).toMatch(/◆ A lock file.*◀/);

    // Transcript: the checked-out branch only (the lock branch), with the shared start.
    expect(frame).toContain('branch-2 · 6 entries');
    expect(frame).toContain('fix the flaky test in storage');
    expect(frame).toContain('try a lock file instead');
    expect(frame).toContain('⚙ read_file  src/storage/jsonl.ts');
    expect(frame).toContain('ReadOnly');
    expect(pane(frame, 'branch-2 ·')).not.toContain('Fixed: the test passes now.');

    // Usage: turn, branch, session, per model, and the retry with its cause.
    expect(frame).toMatch(/turn\s+30\.0k\s+400\s+\$0\.063/);
    expect(frame).toMatch(/session\s+62\.4k\s+2\.7k\s+\$0\.12/);
    expect(frame).toContain('gpt-4.1');
    expect(frame).toContain('o4-mini');
    expect(frame).toMatch(/retries\s+1× rate_limit/);
    expect(frame).toMatch(/waited 2\.0 s · 429 Too/);

    // Registers: pending first, then op, lanes with their leaves, facts.
    expect(frame).toMatch(/pending\s+none/);
    expect(frame).toMatch(/lane\s+main → /);
    expect(frame).toContain(`branch-2 → ${ids.lockAnswer}`);

    // Status bar: machine state, seq, model, session id, and the prompt's keys.
    expect(frame).toContain(`seq ${store.lastSeq}`);
    expect(frame).toContain(store.header.id);
    expect(frame).toContain('⏎ send');
  });

  it('renders the main branch with markdown code and a coloured edit diff once it is checked out', async () => {
    const { store, ids } = prepareSession();
    const { checkout } = await import('../../src/core/session/cursor');
    checkout(store, ids.fixed);
    screen = renderScreen({ store });
    const frame = await screen.waitFor('Fixed: the test passes now.');
    expect(frame).toContain('```ts');
    expect(frame).toContain('if (seq !== expected) return casConflict(seq)');
    expect(frame).toContain('⚙ edit_file  src/storage/jsonl.ts');
    expect(frame).toContain('Write');
    expect(frame).toContain('✔ approved by you');
    expect(frame).toContain('-    const seq = this.seq');
    expect(frame).toContain('+    const seq = this.state.seq');
    expect(frame).toContain('+1 −1');
  });

  it('never draws more than rows-1 lines nor a line wider than the terminal', async () => {
    const { store } = prepareSession();
    for (const [columns, rows] of [
      [140, 40],
      [100, 24],
      [120, 12],
      [80, 30],
      [60, 16],
      [40, 8],
      [24, 6],
    ] as const) {
      screen = renderScreen({ store, columns, rows });
      const frame = await screen.waitFor('●');
      const lines = frame.split('\n');
      expect(lines.length, `${columns}x${rows}`).toBeLessThanOrEqual(rows - 1);
      for (const line of lines)
        expect(stripAnsi(line).length, `${columns}x${rows}: ${line}`).toBeLessThanOrEqual(columns);
      screen.unmount();
      screen = undefined;
    }
  });
});

function stripAnsi(text: string): string {
  return text.replace(/\x1b\[[0-9;]*m/g, '');
}
