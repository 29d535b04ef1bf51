/**
 * Esc while a restore writes its files does not stop it (stopping part way would leave some files
 * restored and others not): the screen says that, not that the work is being stopped, and when
 * the restore then fails part way (here its git runs past the time limit) the transcript and the
 * flash say so with the entry that puts every file back. The restore runs over a real Agent and a
 * git wrapper that hangs at the restore's checkout; its time limit passes when the test says.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { hangingGit, testTimer } from '../support/hanging-git';
import { realAgent } from './agent-fixture';
import { KEYS, renderScreen, type Screen } from './harness';
import { emptyStore } from './session-fixture';
import { tempDirForTest } from '../support/after-the-test';

let screen: Screen | undefined;
afterEach(() => {
  screen?.unmount();
  screen = undefined;
});

describe('Esc while a restore writes its files', () => {
  it('says the restore goes on to its end; its failure part way is shown with the entry that undoes it', async () => {
    const home = tempDirForTest('tole-tui-home-');
    const git = hangingGit();
    const limit = testTimer();
    const store = emptyStore();
    const fixture = realAgent(
      store,
      [
        {
          chunks: ['Writing.'],
          toolCalls: [
            { id: 'w_a', name: 'write_file', arguments: JSON.stringify({ path: 'a.txt', content: 'new\n' }) },
          ],
        },
        { chunks: ['Done.'] },
      ],
      { yes: true, checkpointHome: home, git: { binary: git.binary, timer: limit.timer } },
    );
    try {
      writeFileSync(join(fixture.workspace, 'a.txt'), 'old\n');
      await fixture.agent.runTurn('write a', new AbortController().signal, () => {});
      screen = renderScreen({
        store,
        agent: fixture.agent,
        approvals: fixture.approvals,
        policy: fixture.policy,
        noColor: true,
      });
      await screen.waitFor('Done.');
      await screen.press(KEYS.tab, KEYS.home, 'u');
      await vi.waitFor(() => expect(screen!.frame()).toContain('1 to overwrite'), { timeout: 30_000, interval: 20 });
      git.hangAt('checkout');
      await screen.press('y');
      await git.hanging();
      await screen.press(KEYS.escape);
      await vi.waitFor(() => expect(screen!.frame()).toContain('the restore writes its files to its end'), {
        timeout: 30_000,
        interval: 20,
      });
      expect(screen.frame()).not.toContain('being stopped');
      expect(screen.frame()).not.toContain('stopping…');

      limit.expire();
      const [restore] = [...store.tree.all()].filter((e) => e.type === 'restore');
      await vi.waitFor(() => expect(screen!.frame()).toContain(`u on ${restore!.id} puts them all back`), {
        timeout: 30_000,
        interval: 20,
      });
      const text = screen.frame().replace(/\s+/g, ' ');
      expect(text).toContain('✗ the restore failed part way: git checkout was stopped');
      expect(text).toContain(`restore to its entry ${restore!.id}`);
      expect(readFileSync(join(fixture.workspace, 'a.txt'), 'utf8')).toBe('new\n');
    } finally {
      git.release();
    }
  });
});
