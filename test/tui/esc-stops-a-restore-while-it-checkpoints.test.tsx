/**
 * Esc in the screen stops a restore while it checkpoints the files as they are now: the git that
 * hangs there is killed, the screen says nothing was restored, the transcript shows the session's
 * notice, and the workspace is as it was. The restore runs over a real Agent and a git wrapper
 * that hangs at the checkpoint's commit.
 */
import { readFileSync } from 'node:fs';
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

describe('Esc during a restore', () => {
  it('while the files as they are now are checkpointed: nothing restored, and the screen says so', async () => {
    const home = tempDirForTest('tole-tui-home-');
    const git = hangingGit();
    const store = emptyStore();
    const fixture = realAgent(
      store,
      [
        {
          chunks: ['Writing.'],
          toolCalls: [
            { id: 'w_b', name: 'write_file', arguments: JSON.stringify({ path: 'b.txt', content: 'new\n' }) },
          ],
        },
        { chunks: ['Done.'] },
      ],
      { yes: true, checkpointHome: home, git: { binary: git.binary, timer: testTimer().timer } },
    );
    try {
      await fixture.agent.runTurn('add b', new AbortController().signal, () => {});
      const promptId = [...store.tree.all()].find((e) => e.type === 'user')!.id;
      screen = renderScreen({
        store,
        agent: fixture.agent,
        approvals: fixture.approvals,
        policy: fixture.policy,
        noColor: true,
      });
      await screen.waitFor('Done.');
      await screen.press(KEYS.tab, KEYS.home, 'u');
      await vi.waitFor(() => expect(screen!.frame()).toContain('1 to remove'), { timeout: 30_000, interval: 20 });
      // The checkpoint's commit, by a git that keeps running: ended here, it is started again there.
      fixture.checkpoints?.close();
      git.hangAt('hash-object');
      await screen.press('y');
      await git.hanging();
      await screen.press(KEYS.escape);
      await vi.waitFor(() => expect(screen!.frame()).toContain('files not restored: interrupted by the user'), {
        timeout: 30_000,
        interval: 20,
      });
      expect(screen.frame()).toContain(`restore of the files to ${promptId} interrupted`);
      expect(readFileSync(join(fixture.workspace, 'b.txt'), 'utf8')).toBe('new\n');
      expect([...store.tree.all()].filter((e) => e.type === 'restore' || e.type === 'restore_result')).toEqual([]);
    } finally {
      git.release();
    }
  });
});
