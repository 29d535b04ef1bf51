import { describe, expect, it } from 'vitest';
import { readTailPreview } from '../../src/core/storage/tail-preview';
import { SessionStore } from '../../src/core/storage/session-store';
import { seededRandom } from '../../src/core/clock';
import { provisionalFrame } from '../../src/tui/run-provisional';
import { CHECKING } from '../../src/tui/screen/ProvisionalScreen';
import { HOSTILE_SEQUENCES, hostileText } from '../adversarial/corpus/hostile-sequences';
import { tempDirForTest } from '../support/after-the-test';
import { commitTurns } from '../support/session-turns';
import { pane, renderScreen, stripAnsi } from './harness';
import { fixedClock, storeIn } from './session-fixture';

/** A session of `turns` prompt/answer commits (answers of several lines), with a side branch. */
function writtenSession(turns: number, answer = ''): string {
  const store = storeIn(tempDirForTest('tole-provisional-'));
  commitTurns(store, turns, {
    question: (i) => `question ${i}: how does the store replay a torn tail?`,
    answer: (i) => `answer ${i}: it cuts the bad final line away.${answer}\n\n- one\n- two \`code ${i}\``,
    model: 'gpt-4.1',
    sideBranchAt: 3,
  });
  store.close();
  return store.path;
}

function opened(path: string): SessionStore {
  return SessionStore.open(path, { clock: fixedClock(), random: seededRandom(3), readOnly: true });
}

const input = (path: string, tail = 16 * 1024) => ({
  preview: readTailPreview(path, tail)!,
  theme: 'dark',
  noColor: false,
  readOnly: true,
  notices: [] as string[],
});

describe('the provisional frame of a large session', () => {
  for (const [columns, rows] of [
    [120, 40],
    [80, 24],
  ] as const) {
    it(`shows the transcript the checked screen shows, at ${columns}x${rows}`, async () => {
      const path = writtenSession(150);
      const provisional = provisionalFrame(input(path), columns, rows);
      const store = opened(path);
      const screen = renderScreen({ store, columns, rows, readOnly: true });
      try {
        const checked = await screen.waitFor('main ·');
        // A narrow screen shows the transcript alone, at the screen's edge: its rows between the title and the prompt.
        const transcript = (frame: string): string =>
          columns >= 100
            ? pane(frame, 'main ·')
            : stripAnsi(frame)
                .split('\n')
                .slice(1, rows - 3)
                .join('\n');
        const shown = transcript(provisional);
        // The pane's lines equal the checked screen's, row for row; its title cannot count the entries yet.
        expect(shown.split('\n').length).toBeGreaterThan(rows / 2);
        expect(shown).toBe(transcript(checked));
        expect(shown).toContain('answer 149: it cuts the bad final line away.');
        const top = stripAnsi(provisional).split('\n')[0]!;
        expect(top).toContain(`main · ${CHECKING}`);
        expect(stripAnsi(checked).split('\n')[0]).toContain('main · 300 entries');
        // What needs the whole file says so, and nothing of it is made up.
        if (columns >= 100) {
          for (const title of ['tree', 'usage', 'registers']) expect(pane(provisional, title).trim()).toBe(CHECKING);
        }
        const status = stripAnsi(provisional).trimEnd().split('\n').at(-1)!;
        expect(status).toContain(CHECKING);
        expect(status).toContain(store.header.id);
        expect(status).not.toMatch(/seq \d/);
        expect(stripAnsi(provisional).split('\n')).toHaveLength(rows - 1);
      } finally {
        screen.unmount();
        store.close();
      }
    });
  }

  it('says checking session… in the transcript when the tail does not hold enough of the path to fill it', () => {
    const path = writtenSession(150);
    const shown = pane(provisionalFrame(input(path, 600), 120, 40), 'main ·');
    expect(shown.trim()).toBe(CHECKING);
  });

  it('lays the known notices out where the checked screen flashes them', () => {
    const path = writtenSession(150);
    const notice = 'the workspace holds a folder of its own: every call asks for a key';
    const frame = stripAnsi(provisionalFrame({ ...input(path), notices: [notice] }, 120, 40)).split('\n');
    expect(frame.at(-3)).toContain(notice);
  });

  it('shows escape sequences in the tail made visible, as the checked screen does, never passed on', () => {
    const path = writtenSession(60, ` ${hostileText()}`);
    const frame = provisionalFrame({ ...input(path), noColor: true }, 120, 40);
    expect(frame).toContain('osc52-bel');
    expect(HOSTILE_SEQUENCES.filter((h) => frame.includes(h.acted)).map((h) => h.id)).toEqual([]);
  });
});
