import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { indexKeyIn, indexKeyPath } from '../../src/cli/index-key';

const homes: string[] = [];
afterAll(() => {
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

function home(): string {
  const made = mkdtempSync(join(tmpdir(), 'tole-index-key-'));
  homes.push(made);
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
