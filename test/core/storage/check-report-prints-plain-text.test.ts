import { describe, expect, it } from 'vitest';
import { seededRandom, systemClock } from '../../../src/core/clock';
import { AppendBatch } from '../../../src/core/session/cursor';
import { checkSessionFile, formatCheckReport } from '../../../src/core/storage/check';
import { SessionStore } from '../../../src/core/storage/session-store';
import { tempDirForTest } from '../../support/after-the-test';

describe('tole check', () => {
  it('prints what a hostile file holds (here its directory) without control characters, one fact a line', () => {
    const dir = tempDirForTest('tole-check-plain-');
    const store = SessionStore.create(dir, {
      clock: systemClock,
      random: seededRandom(3),
      cwd: '/work/\x1b]0;owned\x07dir\nfake: line',
    });
    const batch = new AppendBatch(store);
    batch.entry('user', { text: 'hi' });
    store.commit(batch.build());
    store.close();
    const text = formatCheckReport(checkSessionFile(store.path));
    expect(text).toContain('cwd:       /work/]0;owneddirfake: line');
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(text.split('\n').some((line) => line.startsWith('fake:'))).toBe(false);
  });
});
