/**
 * Esc while a restore writes its files does not stop it (stopping part way would leave some files
 * restored and others not): the screen says that, not that the work is being stopped, and when
 * the restore then fails part way (here its git runs past the time limit) the transcript and the
 * flash say so with the entry that puts every file back. The restore runs over a real Agent and a
 * git wrapper that hangs at the restore's checkout; its time limit passes when the test says.
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

describe('Esc while a restore writes its files', () => {
  it('says the restore goes on to its end; its failure part way is shown with the entry that undoes it', async () => {
    const git = hangingGit();
    const limit = testTimer();
    const turn = await aTurnThatWrote(
      { 'a.txt': 'new\n' },
      { before: { 'a.txt': 'old\n' }, git: { binary: git.binary, timer: limit.timer } },
    );
    const { store, fixture } = turn;
    try {
      screen = screenOn(turn);
      await screen.waitFor('Done.');
      await screen.press(KEYS.tab, KEYS.home, 'u');
      await showsAfterGit(screen, '1 to overwrite');
      git.hangAt('checkout');
      await screen.press('y');
      await git.hanging();
      await screen.press(KEYS.escape);
      await showsAfterGit(screen, 'the restore writes its files to its end');
      expect(screen.frame()).not.toContain('being stopped');
      expect(screen.frame()).not.toContain('stopping…');

      limit.expire();
      const [restore] = [...store.tree.all()].filter((e) => e.type === 'restore');
      await showsAfterGit(screen, `u on ${restore!.id} puts them all back`);
      const text = screen.frame().replace(/\s+/g, ' ');
      expect(text).toContain('✗ the restore failed part way: git checkout was stopped');
      expect(text).toContain(`restore to its entry ${restore!.id}`);
      expect(readFileSync(join(fixture.workspace, 'a.txt'), 'utf8')).toBe('new\n');
    } finally {
      git.release();
    }
  });
});
