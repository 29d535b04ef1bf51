/**
 * Properties of the fail-closed classifier (issue 26):
 * - no mix of expansions, quoting, redirections, neighbours, subshells, `bash -c` or wrappers
 *   around a Destructive command of the corpus brings its verdict below Destructive;
 * - a ReadOnly command of the corpus given any expansion tole cannot prove inert (arithmetic on
 *   a name, `$( )`, `<( )`, indirection, a prompt, `/proc/$PPID`) is no longer ReadOnly;
 * - nor one that opens paths, given a path only known when it runs (`$x`, `$1`, `~-`).
 * Runs: TOLE_FC_RUNS each (test/support/fc-runs.ts); raise it to search harder.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyCommand } from '../../../src/core/approval/command-risk';
import type { Risk } from '../../../src/core/approval/risk';
import { fcRuns } from '../../support/fc-runs';

interface Corpus {
  readonly existing: readonly string[];
  readonly directories: readonly string[];
  readonly cases: readonly { readonly command: string; readonly risk: Risk }[];
}

const corpus = JSON.parse(readFileSync(join(import.meta.dirname, 'command-corpus.json'), 'utf8')) as Corpus;
const existing = new Set(corpus.existing);
const directories = new Set(corpus.directories);
const opts = { exists: (path: string) => existing.has(path), isDirectory: (path: string) => directories.has(path) };
const RUNS = fcRuns();

/**
 * One-line cases with no comment, which text can be put around without changing what they are;
 * not those Destructive only because the parser refuses them (`function f { … }`).
 */
const oneLine = (risk: Risk): string[] =>
  corpus.cases
    .filter((c) => c.risk === risk && !/[\n#]/.test(c.command))
    .filter((c) => !classifyCommand(c.command).reason.includes('cannot be parsed'))
    .map((c) => c.command);
const DESTRUCTIVE = oneLine('Destructive');
const READ_ONLY = oneLine('ReadOnly');

const singleQuoted = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
const FIRST_WORD = /^([A-Za-z][\w.+-]*)(?=\s|$)/;

/** Ways to spell the command name that bash reads as the same name. */
const SPELLINGS: readonly ((name: string) => string)[] = [
  (n) => `\\${n}`,
  (n) => `"${n}"`,
  (n) => `'${n}'`,
  (n) => `${n[0]}''${n.slice(1)}`,
  (n) => `${n[0]}""${n.slice(1)}`,
  (n) => `$'${n}'`,
  (n) => `${n.slice(0, -1)}\\${n.slice(-1)}`,
];
/** Words put right after the command name: values only known when it runs. */
const EXPANSIONS = ['"$x"', '$x', '${x:-y}', '"${x:-y}"', '${x:+-v}', '"${@}"', '$*'];
/** Things put around a whole line. */
const AROUND: readonly ((line: string) => string)[] = [
  (l) => `${l} > /dev/null`,
  (l) => `${l} 2>&1`,
  (l) => `${l} 2>/dev/null`,
  (l) => `${l} >> /dev/null 2>&1`,
  (l) => `true; ${l}`,
  (l) => `${l}; true`,
  (l) => `true && ${l}`,
  (l) => `false || ${l}`,
  (l) => `${l} | cat`,
  (l) => `echo a | ${l}`,
  (l) => `( ${l} )`,
  (l) => `{ ${l}; }`,
  (l) => `echo "$( ${l} )"`,
  (l) => `bash -c ${singleQuoted(l)}`,
  (l) => `sh -c ${singleQuoted(l)}`,
  (l) => `eval ${singleQuoted(l)}`,
  (l) => `x=1; ${l}`,
  (l) => `if true; then ${l}; fi`,
  (l) => `for f in a; do ${l}; done`,
];
/** Wrappers that keep a builtin a builtin. */
const SHELL_WRAPPERS = ['command', 'time', 'A=1', 'FOO="$x"'];
/**
 * Builtins: a wrapper that runs a program runs something else by that name (`sudo read` is not
 * bash's read; `xargs mapfile a` runs a program called mapfile, which holds no armed value).
 */
const BUILTINS = new Set([
  'read',
  'mapfile',
  'readarray',
  'declare',
  'typeset',
  'local',
  'export',
  'let',
  'eval',
  'set',
  'cd',
  'trap',
  'alias',
  'source',
  'unset',
  'exit',
  'return',
  'shift',
  'hash',
  'enable',
  'builtin',
]);
/** Wrappers that run the program that follows them. */
const WRAPPERS = [
  ...SHELL_WRAPPERS,
  'sudo',
  'sudo -u me',
  'env',
  'env A=1',
  'nice',
  'nice -n 5',
  'timeout 5',
  'command',
  'nohup',
  'xargs',
  'setsid',
  'stdbuf -o0',
];

type Step = (line: string) => string;

/**
 * The line past the words that keep a builtin a builtin: `xargs command read` runs a program called
 * command, not bash's read. An assignment first is left in place, so no wrapper goes before it
 * (`command A=1 mv` runs a program called A=1).
 */
function withoutShellWrappers(line: string): string {
  const wrapper = ['command', 'time'].find((w) => line.startsWith(`${w} `));
  return wrapper === undefined ? line : withoutShellWrappers(line.slice(wrapper.length + 1));
}

const wordStep: fc.Arbitrary<Step> = fc.oneof(
  fc.constantFrom(...SPELLINGS).map(
    (spell): Step =>
      (l) =>
        l.replace(FIRST_WORD, (name) => spell(name)),
  ),
  fc.constantFrom(...EXPANSIONS).map(
    (e): Step =>
      (l) =>
        l.replace(FIRST_WORD, (name) => `${name} ${e}`),
  ),
);
const lineStep: fc.Arbitrary<Step> = fc.oneof(
  fc.constantFrom(...AROUND),
  fc.constantFrom(...WRAPPERS).map(
    (w): Step =>
      (l) => {
        const name = FIRST_WORD.exec(withoutShellWrappers(l))?.[1];
        if (name === undefined || (BUILTINS.has(name) && !SHELL_WRAPPERS.includes(w))) return l;
        return `${w} ${l}`;
      },
  ),
);
/** Word-level changes first (they need the command name at the start), then line-level ones. */
const disguised = (lines: readonly string[]) =>
  fc
    .tuple(fc.constantFrom(...lines), fc.array(wordStep, { maxLength: 2 }), fc.array(lineStep, { maxLength: 3 }))
    .map(([line, words, around]) => [...words, ...around].reduce((l, step) => step(l), line));

describe('fail closed (properties)', () => {
  it('the corpus has enough one-line cases to draw from', () => {
    expect(DESTRUCTIVE.length).toBeGreaterThan(150);
    expect(READ_ONLY.length).toBeGreaterThan(60);
  });

  it('a Destructive command stays Destructive whatever expansions, quoting, redirections, neighbours or wrappers surround it', () => {
    fc.assert(
      fc.property(disguised(DESTRUCTIVE), (line) => {
        const got = classifyCommand(line, opts);
        expect(got.risk, `${line} (${got.reason})`).toBe('Destructive');
      }),
      { numRuns: RUNS },
    );
  });

  /** Expansions bash evaluates, or whose words come from somewhere tole cannot see. */
  const NOT_INERT = [
    '$((x))',
    '"$((n + 1))"',
    '$[x]',
    '${a[$i]}',
    '${a[i]}',
    '${s:n}',
    '${s:0:$len}',
    '${!ref}',
    '${v@P}',
    '$(id)',
    '"$(true)"',
    '`id`',
    '<(id)',
    '>(cat)',
    '/proc/$PPID/environ',
    '/proc/1/environ',
  ];

  /** Paths whose value is only known when it runs: any of them may be `/proc/<pid>/environ`. */
  const NOT_KNOWN = [
    '$x',
    '"$p"',
    '${x}',
    '$1',
    '"$@"',
    '$*',
    '$_',
    '$OLDPWD',
    '~-/environ',
    '~+/x',
    '${x:-/etc/hosts}',
  ];
  /** One command that opens the paths it is given (not `echo`, `test`, `export` …), alone on its line. */
  const OPENS =
    /^(?!(?:echo|printf|test|true|false|export|declare|local|read|unset|shift|for)\b)[A-Za-z][\w.+-]*(?:\s[^;|&<>()`$\n]*)?$/;
  const OPENING = READ_ONLY.filter((line) => OPENS.test(line));

  it('a ReadOnly command given a path only known when it runs is no longer ReadOnly', () => {
    expect(OPENING.length).toBeGreaterThan(30);
    fc.assert(
      fc.property(fc.constantFrom(...OPENING), fc.constantFrom(...NOT_KNOWN), (line, e) => {
        const got = classifyCommand(`${line} ${e}`, opts);
        expect(got.risk, `${line} ${e} (${got.reason})`).not.toBe('ReadOnly');
      }),
      { numRuns: RUNS },
    );
  });

  it('a ReadOnly command given an expansion tole cannot prove inert is no longer ReadOnly', () => {
    const placed = fc
      .tuple(
        fc.constantFrom(...READ_ONLY),
        fc.constantFrom(...NOT_INERT),
        fc.constantFrom('end', 'after-name', 'assign'),
      )
      .map(([line, e, where]) => {
        if (where === 'assign') return `y=${e} ${line}`;
        if (where === 'after-name' && FIRST_WORD.test(line)) return line.replace(FIRST_WORD, (name) => `${name} ${e}`);
        return `${line} ${e}`;
      });
    fc.assert(
      fc.property(placed, (line) => {
        const got = classifyCommand(line, opts);
        expect(got.risk, `${line} (${got.reason})`).not.toBe('ReadOnly');
      }),
      { numRuns: RUNS },
    );
  });
});
