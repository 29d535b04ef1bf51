import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDirForTest } from './after-the-test';
import { copyOfMadeOnce } from './made-once-per-file';

describe('a directory made once per file and copied for each test', () => {
  it('is made once for a key, and each copy is its own: a change to one reaches neither the next copy nor the made one', () => {
    const key = `counted ${Math.random()}`;
    let made = 0;
    const make = (dir: string): void => {
      made += 1;
      mkdirSync(join(dir, 'sub'));
      writeFileSync(join(dir, 'sub', 'f'), 'made\n');
    };
    const first = join(tempDirForTest('tole-made-copy-'), 'copy');
    copyOfMadeOnce(key, make, first);
    writeFileSync(join(first, 'sub', 'f'), 'changed\n');
    writeFileSync(join(first, 'extra'), 'x');
    const second = tempDirForTest('tole-made-copy-');
    copyOfMadeOnce(key, make, second);
    expect(made).toBe(1);
    expect(readFileSync(join(second, 'sub', 'f'), 'utf8')).toBe('made\n');
    expect(existsSync(join(second, 'extra'))).toBe(false);
  });

  it('is made for each key, and made again when what was made is gone', () => {
    const a = `a ${Math.random()}`;
    const b = `b ${Math.random()}`;
    const makes: string[] = [];
    const maker = (name: string) => (dir: string) => {
      makes.push(name);
      writeFileSync(join(dir, 'name'), name);
    };
    const to = () => join(tempDirForTest('tole-made-copy-'), 'copy');
    const copyA = to();
    copyOfMadeOnce(a, maker('a'), copyA);
    const copyB = to();
    copyOfMadeOnce(b, maker('b'), copyB);
    expect(readFileSync(join(copyA, 'name'), 'utf8')).toBe('a');
    expect(readFileSync(join(copyB, 'name'), 'utf8')).toBe('b');
    // What was made lives in the file's TMPDIR: removed there, the next copy makes it again.
    copyOfMadeOnce(a, maker('not run'), to());
    const madeDirs = readdirSync(tmpdir()).filter((name) => name.startsWith('tole-made-once-'));
    expect(madeDirs.length).toBeGreaterThanOrEqual(2);
    for (const name of madeDirs) rmSync(join(tmpdir(), name), { recursive: true, force: true });
    const again = to();
    copyOfMadeOnce(a, maker('a again'), again);
    expect(readFileSync(join(again, 'name'), 'utf8')).toBe('a again');
    expect(makes).toEqual(['a', 'b', 'a again']);
  });
});
