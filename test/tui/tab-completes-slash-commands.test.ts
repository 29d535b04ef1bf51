import { describe, expect, it } from 'vitest';
import { completeCommand } from '../../src/tui/command-completion';
import { BUILT_IN_COMMANDS } from '../../src/tui/slash-commands';

const commands = [
  ...BUILT_IN_COMMANDS,
  { name: 'compact', args: '', help: '' },
  { name: 'context', args: '', help: '' },
];

describe('Tab on a slash command being typed', () => {
  it('completes the one match, with a space for its arguments', () => {
    expect(completeCommand('/mo', commands)).toMatchObject({ value: '/model ' });
    expect(completeCommand('/compa', commands)).toMatchObject({ value: '/compact ' });
  });

  it('with several matches, goes as far as they agree and lists them', () => {
    const completion = completeCommand('/co', commands)!;
    expect(completion.value).toBe('/co');
    expect(completion.matches.map((c) => c.name)).toEqual(expect.arrayContaining(['compact', 'context']));
    const two = [
      { name: 'context', args: '', help: '' },
      { name: 'contract', args: '', help: '' },
    ];
    expect(completeCommand('/con', two)?.value).toBe('/cont');
  });

  it('leaves Tab alone (it moves the focus) for anything else', () => {
    expect(completeCommand('/model gpt', commands)).toBeNull();
    expect(completeCommand('/zz', commands)).toBeNull();
    expect(completeCommand('hello /mo', commands)).toBeNull();
    expect(completeCommand('/mo\nmore', commands)).toBeNull();
    expect(completeCommand('', commands)).toBeNull();
  });
});
