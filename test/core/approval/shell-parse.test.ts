import { describe, expect, it } from 'vitest';
import {
  MAX_COMMAND_LINE_CHARS,
  type Command,
  type Script,
  type SimpleCommand,
} from '../../../src/core/approval/shell/syntax';
import { parseShell } from '../../../src/core/approval/shell/parser';

function parsed(line: string): Script {
  const result = parseShell(line);
  if (!result.ok) throw new Error(`expected ${JSON.stringify(line)} to parse, got: ${result.error}`);
  return result.script;
}

function simple(command: Command | undefined): SimpleCommand {
  if (command?.kind !== 'simple') throw new Error(`expected a simple command, got ${command?.kind}`);
  return command;
}

/** The words of every simple command, in order, as texts. */
function argvs(line: string): string[][] {
  return parsed(line).pipelines.flatMap((p) => p.commands.map((c) => simple(c).words.map((w) => w.text)));
}

function error(line: string): string {
  const result = parseShell(line);
  if (result.ok) throw new Error(`expected ${JSON.stringify(line)} not to parse`);
  return result.error;
}

describe('words', () => {
  it('joins adjacent quoted and escaped pieces into one word', () => {
    expect(argvs(`r''m -rf x`)).toEqual([['rm', '-rf', 'x']]);
    expect(argvs(`\\rm "a b" 'c d'e`)).toEqual([['rm', 'a b', 'c de']]);
    expect(argvs(`"r"m`)).toEqual([['rm']]);
  });

  it("decodes $'…' escapes, so an encoded name is seen", () => {
    expect(argvs(`$'\\x72\\x6d' $'\\162' $'a\\tb' $'\\u00e9'`)).toEqual([['rm', 'r', 'a\tb', 'é']]);
  });

  it('keeps backslashes in double quotes except before $ ` " \\', () => {
    expect(argvs(`echo "a\\$b \\n \\"q\\""`)).toEqual([['echo', 'a$b \\n "q"']]);
  });

  it('joins a line continuation', () => {
    expect(argvs('ec\\\nho hi \\\n there')).toEqual([['echo', 'hi', 'there']]);
  });

  it('marks expansions, globs and brace expansion as only known at run time', () => {
    const [cmd] = parsed('echo $X ${Y} "$(ls)" *.ts {a,b} plain').pipelines[0]!.commands;
    const flags = simple(cmd).words.map((w) => [w.text, w.expands, w.glob]);
    expect(flags).toEqual([
      ['echo', false, false],
      ['$X', true, false],
      ['${Y}', true, false],
      ['$(ls)', true, false],
      ['*.ts', false, true],
      ['{a,b}', true, false],
      ['plain', false, false],
    ]);
  });

  it('reads a comment only at the start of a word', () => {
    expect(argvs('ls a#b # rm -rf x')).toEqual([['ls', 'a#b']]);
  });
});

describe('structure', () => {
  it('splits lists and pipelines on every operator', () => {
    expect(argvs('a; b && c || d | e |& f & g\nh')).toEqual([['a'], ['b'], ['c'], ['d'], ['e'], ['f'], ['g'], ['h']]);
  });

  it('parses subshells and brace groups with their redirections', () => {
    const [group] = parsed('( a; b ) > out').pipelines[0]!.commands;
    expect(group?.kind).toBe('group');
    if (group?.kind !== 'group') return;
    expect(group.redirects.map((r) => [r.op, r.target.text])).toEqual([['>', 'out']]);
    expect(group.body.pipelines).toHaveLength(2);
    expect(parsed('{ a; b; }').pipelines[0]!.commands[0]!.kind).toBe('group');
  });

  it('parses command, backtick and process substitutions recursively', () => {
    const words = simple(parsed('echo $(a $(b)) `c` <(d)').pipelines[0]!.commands[0]).words;
    const inner = words[1]!.substitutions[0]!.pipelines[0]!.commands[0];
    expect(simple(inner).words[0]!.text).toBe('a');
    expect(simple(simple(inner).words[1]!.substitutions[0]!.pipelines[0]!.commands[0]).words[0]!.text).toBe('b');
    expect(simple(words[2]!.substitutions[0]!.pipelines[0]!.commands[0]).words[0]!.text).toBe('c');
    expect(words[3]!.processSubstitution).toBe(true);
  });

  it('separates leading assignments from the command', () => {
    const cmd = simple(parsed('A=1 B="x y" rm C=2').pipelines[0]!.commands[0]);
    expect(cmd.assignments.map((a) => [a.name, a.value.text])).toEqual([
      ['A', '1'],
      ['B', 'x y'],
    ]);
    expect(cmd.words.map((w) => w.text)).toEqual(['rm', 'C=2']);
    expect(simple(parsed('"A"=1').pipelines[0]!.commands[0]).words[0]!.text).toBe('A=1');
  });

  it('reads redirections with or without spaces, with fds', () => {
    const cmd = simple(parsed('cmd >a 2>&1 >> b 2>/dev/null &>c <d >|e 3<>f').pipelines[0]!.commands[0]);
    expect(cmd.words.map((w) => w.text)).toEqual(['cmd']);
    expect(cmd.redirects.map((r) => `${r.fd ?? ''}${r.op}${r.target.text}`)).toEqual([
      '>a',
      '2>&1',
      '>>b',
      '2>/dev/null',
      '&>c',
      '<d',
      '>|e',
      '3<>f',
    ]);
  });

  it('reads a heredoc body and does not parse it as commands', () => {
    const script = parsed("cat <<'EOF' > notes.md\nrm -rf x; don't\nEOF\necho done");
    expect(argvs("cat <<'EOF' > notes.md\nrm -rf x; don't\nEOF\necho done")).toEqual([['cat'], ['echo', 'done']]);
    const heredoc = simple(script.pipelines[0]!.commands[0]).redirects[0]!.heredoc;
    expect(heredoc).toEqual({ body: "rm -rf x; don't\n", expands: false, substitutions: [], evaluates: false });
  });

  it('finds substitutions in an unquoted heredoc body', () => {
    const heredoc = simple(parsed('cat <<EOF\n$(rm -rf x)\nEOF').pipelines[0]!.commands[0]).redirects[0]!.heredoc!;
    expect(heredoc.expands).toBe(true);
    expect(simple(heredoc.substitutions[0]!.pipelines[0]!.commands[0]).words[0]!.text).toBe('rm');
  });

  it('looks through if, while, for and ! to the commands they run', () => {
    expect(argvs('if a; then b; elif c; then d; else e; fi')).toEqual([['a'], ['b'], ['c'], ['d'], ['e'], []]);
    expect(argvs('for f in x y; do rm "$f"; done')).toEqual([['for', 'f', 'in', 'x', 'y'], ['rm', '$f'], []]);
    expect(argvs('! while a; do b; done')).toEqual([['a'], ['b'], []]);
  });

  it('parses a function definition with its body', () => {
    const fn = parsed(':(){ :|:& };:').pipelines[0]!.commands[0];
    expect(fn?.kind).toBe('function');
    if (fn?.kind === 'function') expect(fn.name).toBe(':');
  });
});

describe('what it refuses', () => {
  it.each([
    ["echo 'hi", 'single quote'],
    ['echo "hi', 'double quote'],
    ['echo `hi', 'backtick'],
    ['echo $(ls', '`$(`'],
    ['echo ${x', '`${`'],
    ['( ls', '`(`'],
    ['ls )', 'unexpected `)`'],
    ['{ ls', '`{`'],
    ['ls &&', 'missing'],
    ['| ls', 'missing'],
    ['ls >', 'file name'],
    ['ls \\', 'backslash'],
    ['case x in a) ls;; esac', 'not supported'],
  ])('%j: %s', (line, fragment) => {
    expect(error(line)).toContain(fragment);
  });

  it('bounds nesting depth', () => {
    const nested = (n: number): string => (n === 0 ? 'ls' : `echo $(${nested(n - 1)})`);
    expect(parseShell(nested(7)).ok).toBe(true);
    expect(error(nested(12))).toContain('levels deep');
    expect(parseShell('ls', 9).ok).toBe(false);
  });

  it('bounds input length', () => {
    expect(error('a'.repeat(MAX_COMMAND_LINE_CHARS + 1))).toContain('longer than');
  });

  it('survives long flat inputs without deep recursion', () => {
    expect(parseShell('! '.repeat(20_000) + 'ls').ok).toBe(true);
    expect(parseShell('ls; '.repeat(10_000)).ok).toBe(true);
  });
});
