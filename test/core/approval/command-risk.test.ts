import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyCommand } from '../../../src/core/approval/command-risk';
import { MAX_COMMAND_LINE_CHARS } from '../../../src/core/approval/shell/syntax';
import { fcRuns } from '../../support/fc-runs';

const nothingExists = { exists: () => false };

describe('classifyCommand', () => {
  it('gives the reason of the part that decided', () => {
    expect(classifyCommand('ls; rm -rf build; git push')).toEqual({
      risk: 'Destructive',
      reason: '`rm -r` removes a directory tree',
    });
    expect(classifyCommand('git status && npm install').reason).toBe(
      '`npm install` changes node_modules and may run install scripts',
    );
    expect(classifyCommand('git push --force').reason).toBe('`git push --force` overwrites the remote branch history');
  });

  it('names every reader when the whole line only reads', () => {
    expect(classifyCommand('cat a | grep b | wc -l')).toEqual({
      risk: 'ReadOnly',
      reason: '`cat`, `grep`, `wc` only read',
    });
  });

  it('says why an unparseable line is Destructive', () => {
    const result = classifyCommand("echo 'unterminated");
    expect(result.risk).toBe('Destructive');
    expect(result.reason).toMatch(
      /^the command cannot be parsed, so it is treated as Destructive: a single quote is never closed/,
    );
  });

  it('treats a redirect target as existing unless told otherwise', () => {
    expect(classifyCommand('echo hi > notes.txt').risk).toBe('Destructive');
    expect(classifyCommand('echo hi > notes.txt', nothingExists)).toEqual({
      risk: 'Write',
      reason: '`> notes.txt` creates notes.txt',
    });
    expect(classifyCommand('echo hi > notes.txt', { exists: (p) => p === 'notes.txt' }).reason).toBe(
      '`> notes.txt` empties the existing file notes.txt before writing',
    );
  });

  it('never writes /dev/null, but a device is Destructive', () => {
    expect(classifyCommand('make 2>/dev/null >/dev/null').risk).toBe('Write');
    expect(classifyCommand('ls >/dev/null 2>&1').risk).toBe('ReadOnly');
    expect(classifyCommand('echo x > /dev/sda', nothingExists).risk).toBe('Destructive');
  });

  it('asks the exists check with the path as written', () => {
    const asked: string[] = [];
    classifyCommand('mv a.txt docs/b.txt; cat x > out/log', { exists: (p) => (asked.push(p), false) });
    expect(asked).toEqual(['docs/b.txt', 'out/log']);
  });

  it('moves into a directory: only the path inside it counts', () => {
    const opts = {
      exists: (p: string) => p === 'dest' || p === 'dest/b.txt',
      isDirectory: (p: string) => p === 'dest',
    };
    expect(classifyCommand('mv a.txt dest', opts).risk).toBe('Write');
    expect(classifyCommand('mv b.txt dest', opts)).toEqual({
      risk: 'Destructive',
      reason: '`mv` replaces the existing dest/b.txt',
    });
  });

  it('stops trusting relative paths after cd', () => {
    expect(classifyCommand('echo hi > new.txt', nothingExists).risk).toBe('Write');
    expect(classifyCommand('cd /tmp && echo hi > new.txt', nothingExists).risk).toBe('Destructive');
  });

  it('bounds the depth of re-parsed strings', () => {
    const nest = (n: number): string => (n === 0 ? 'ls' : `sh -c ${JSON.stringify(nest(n - 1))}`);
    expect(classifyCommand(nest(3)).risk).toBe('ReadOnly');
    expect(classifyCommand(nest(12)).risk).toBe('Destructive');
  });

  it('bounds the input length', () => {
    const result = classifyCommand(`ls ${'a'.repeat(MAX_COMMAND_LINE_CHARS)}`);
    expect(result.risk).toBe('Destructive');
    expect(result.reason).toContain('longer than');
  });

  // A classifier that went quadratic on these would run into the test's time limit, which only bounds that failure.
  it('classifies inputs built to be slow, each as what it is', () => {
    expect(classifyCommand(`foo ${'git '.repeat(10_000)}`).risk).toBe('Write');
    expect(classifyCommand('sudo '.repeat(5_000) + 'ls').risk).toBe('Destructive');
    expect(classifyCommand('ls | '.repeat(5_000) + 'ls')).toMatchObject({
      risk: 'Destructive',
      reason: expect.stringContaining('too complex to check'),
    });
  });

  it('does not look up Object prototype names as rules', () => {
    expect(classifyCommand('constructor x').risk).toBe('Write');
    expect(classifyCommand('git constructor').risk).toBe('Write');
    expect(classifyCommand('__proto__').risk).toBe('Write');
  });
});

/** `text` as one single-quoted shell word. */
const singleQuoted = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;
/** `text` as one double-quoted shell word. */
const doubleQuoted = (text: string): string => `"${text.replace(/["\\$`]/g, '\\$&')}"`;

/**
 * Commands each Destructive on its own, and ways to hide them inside another line. Spaces keep
 * `$( (…) )` from reading as arithmetic `$((…))`, which bash does not run as a command.
 */
const DESTRUCTIVE = [
  'rm -rf x',
  '\\rm -rf x',
  "r''m -rf x",
  '"rm" -r x',
  'git push --force',
  'git reset --hard',
  'find . -delete',
  'dd if=a of=b',
  'git clean -fdx',
  'shred f',
  'chmod -R 0 .',
];
const SAFE = ['ls', 'git status', 'cat a', 'echo hi', 'true', 'grep x y'];
const HIDERS: readonly ((d: string, s: string) => string)[] = [
  (d, s) => `${s}; ${d}`,
  (d, s) => `${s} && ${d}`,
  (d, s) => `${s} || ${d}`,
  (d, s) => `${s} | ${d}`,
  (d, s) => `${s} & ${d}`,
  (d, s) => `${s}\n${d}`,
  (d, s) => `${s} $( ${d} )`,
  (d, s) => `${s} "$( ${d} )"`,
  (d) => `( ${d} )`,
  (d) => `{ ${d}; }`,
  (d) => `bash -c ${singleQuoted(d)}`,
  (d) => `sh -c ${doubleQuoted(d)}`,
  (d) => `eval ${singleQuoted(d)}`,
  (d, s) => `${s} | xargs sh -c ${singleQuoted(d)}`,
  (d) => `sudo ${d}`,
  (d) => `env -i A=1 ${d}`,
  (d) => `nice -n 3 ${d}`,
  (d) => `timeout 10 ${d}`,
  (d) => `nohup ${d}`,
  (d) => `command ${d}`,
  (d) => `exec ${d}`,
  (d) => `X=1 ${d}`,
  (d) => `if true; then ${d}; fi`,
  (d) => `for i in 1; do ${d}; done`,
  (d, s) => `${s} <( ${d} )`,
  (d) => `setsid ${d}`,
];

describe('hiding a Destructive command (property)', () => {
  it('stays Destructive however it is wrapped, nested or chained', () => {
    const hidden = fc.letrec((tie) => ({
      line: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.constantFrom(...DESTRUCTIVE),
        fc
          .tuple(tie('line') as fc.Arbitrary<string>, fc.constantFrom(...HIDERS), fc.constantFrom(...SAFE))
          .map(([d, hide, s]) => hide(d, s)),
      ),
    })).line;
    fc.assert(
      fc.property(hidden, (line) => {
        expect(classifyCommand(line, nothingExists).risk, line).toBe('Destructive');
      }),
      { numRuns: fcRuns() },
    );
  });

  it('never throws, whatever the input', () => {
    const shellish = fc.stringMatching(/^[a-z \-;&|()<>$`'"\\{}\n=*]{0,60}$/);
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 80 }), shellish), (line) => {
        const result = classifyCommand(line);
        expect(['ReadOnly', 'Write', 'Destructive']).toContain(result.risk);
        expect(result.reason.length).toBeGreaterThan(0);
      }),
      { numRuns: fcRuns() },
    );
  });
});
