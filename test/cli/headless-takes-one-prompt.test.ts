/**
 * `tole -p` runs one turn: it reads no stdin and has no queue, so a second prompt on the command
 * line is a usage error that says how to send it, instead of the first being dropped silently.
 */
import { describe, expect, it } from 'vitest';
import { parseArgs, UsageError } from '../../src/cli/args';

describe('tole -p takes one prompt', () => {
  it.each([
    [['-p', 'first', '-p', 'second'], '-p'],
    [['--prompt', 'first', '-p', 'second'], '-p'],
    [['-p', 'first', '--prompt=second'], '--prompt'],
  ])('%j is refused, naming the flag given twice and tole -c -p for the next', (argv, flag) => {
    expect(() => parseArgs(argv)).toThrow(UsageError);
    expect(() => parseArgs(argv)).toThrow(`${flag} was given twice: tole -p runs one turn with one prompt`);
    expect(() => parseArgs(argv)).toThrow('tole -c -p "…"');
  });

  it('one prompt is the headless command, with its text as given', () => {
    const args = parseArgs(['-p', 'fix the tests', '--model', 'm']);
    expect(args.command).toBe('headless');
    expect(args.prompt).toBe('fix the tests');
  });
});
