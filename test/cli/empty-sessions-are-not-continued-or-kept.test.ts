import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../src/core/clock';
import { SessionStore } from '../../src/core/storage/session-store';
import { discardUnused, newestSessionIn } from '../../src/cli/session-files';
import { append, fixedClock } from '../tui/session-fixture';
import { tempDirForTest } from '../support/after-the-test';

function create(dir: string, startMs: number, cwd = '/work/project'): SessionStore {
  return SessionStore.create(dir, { clock: fixedClock(startMs), random: seededRandom(startMs), cwd });
}

describe('sessions left without a prompt', () => {
  it('tole -c skips a newer session that holds nothing and continues the newest one that does', () => {
    const dir = tempDirForTest('tole-empty-');
    const used = create(dir, 1_764_460_000_000);
    append(used, 'user', { text: 'hello' });
    used.close();
    const empty = create(dir, 1_764_470_000_000);
    empty.close();
    expect(newestSessionIn(dir, '/work/project')).toBe(used.path);
  });

  it('a session this tole made and left unused is removed on the way out; one with a prompt, or one it only opened, is kept', () => {
    const dir = tempDirForTest('tole-empty-');
    const empty = create(dir, 1_764_460_000_000);
    empty.close();
    expect(discardUnused(empty, true)).toBe(true);
    expect(existsSync(empty.path)).toBe(false);

    const used = create(dir, 1_764_470_000_000);
    append(used, 'user', { text: 'keep me' });
    used.close();
    expect(discardUnused(used, true)).toBe(false);
    expect(existsSync(used.path)).toBe(true);

    const opened = create(dir, 1_764_480_000_000);
    opened.close();
    expect(discardUnused(opened, false)).toBe(false);
    expect(existsSync(opened.path)).toBe(true);
  });
});
