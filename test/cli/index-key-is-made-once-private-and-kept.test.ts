import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { indexKeyIn, indexKeyPath } from '../../src/cli/index-key';
import { tempDirForTest } from '../support/after-the-test';

function home(): string {
  const made = tempDirForTest('tole-index-key-');
  return join(made, 'home');
}

describe("the user's key for saved indexes", () => {
  it('is made on first need: 32 random bytes, mode 0600, and the same key afterwards', () => {
    const at = home();
    const key = indexKeyIn(at)();
    expect(key?.length).toBe(32);
    expect(statSync(indexKeyPath(at)).mode & 0o777).toBe(0o600);
    expect(readFileSync(indexKeyPath(at)).equals(key!)).toBe(true);
    expect(indexKeyIn(at)()!.equals(key!)).toBe(true);
    expect(indexKeyIn(home())()!.equals(key!)).toBe(false);
  });

  it('a key file of another size is refused, saying what to do', () => {
    const at = home();
    mkdirSync(at, { recursive: true });
    writeFileSync(indexKeyPath(at), Buffer.alloc(5));
    expect(() => indexKeyIn(at)()).toThrow(/holds 5 bytes, not a key of 32: remove it/);
  });
});
