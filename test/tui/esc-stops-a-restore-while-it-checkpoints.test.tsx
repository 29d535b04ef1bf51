/**
 * Esc in the screen stops a restore while it checkpoints the files as they are now: the git that
 * hangs there is killed, the screen says nothing was restored, the transcript shows the session's
 * notice, and the workspace is as it was. The restore runs over a real Agent and a git wrapper
 * that hangs where the checkpoint moves its ref.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hangingGit, testTimer } from '../support/hanging-git';
import { aTurnThatWrote, screenOn, showsAfterGit } from '../support/files-turn';
import { KEYS, type Screen } from './harness';

let screen: Screen | undefined;
afterEach(() => {
  screen?.unmount();
  screen = undefined;
});

describe('Esc during a restore', () => {
  it('while the files as they are now are checkpointed: nothing restored, and the screen says so', async () => {
    const git = hangingGit();
    const turn = await aTurnThatWrote({ 'b.txt': 'new\n' }, { git: { binary: git.binary, timer: testTimer().timer } });
    const { store, fixture, promptId } = turn;
    try {
      screen = screenOn(turn);
      await screen.waitFor('Done.');
      await screen.press(KEYS.tab, KEYS.home, 'u');
      await showsAfterGit(screen, '1 to remove');
      // The checkpoint's ref, moved by a git that keeps running: ended here, it is started again there.
      fixture.checkpoints?.close();
      git.hangAt('update-ref');
      await screen.press('y');
      await git.hanging();
      await screen.press(KEYS.escape);
      await showsAfterGit(screen, 'files not restored: interrupted by the user');
      expect(screen.frame()).toContain(`restore of the files to ${promptId} interrupted`);
      expect(readFileSync(join(fixture.workspace, 'b.txt'), 'utf8')).toBe('new\n');
      expect([...store.tree.all()].filter((e) => e.type === 'restore' || e.type === 'restore_result')).toEqual([]);
    } finally {
      git.release();
    }
  });
});
