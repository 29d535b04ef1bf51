import { describe, expect, it } from 'vitest';
import { promptMentions } from '../../../src/core/tools/prompt-mentions';

const paths = (prompt: string): string[] => promptMentions(prompt).map((m) => m.path);

describe('the @path mentions of a prompt', () => {
  it('are words that start with @ at the start or after a space, without the punctuation that ends a sentence', () => {
    expect(paths('@src/a.ts explain, then compare with @b.md.')).toEqual(['src/a.ts', 'b.md']);
    expect(paths('see (@notes/x.txt) and @c.txt?')).toEqual(['c.txt']);
    expect(paths('two lines\n@second.ts')).toEqual(['second.ts']);
  });

  it('take a double-quoted name with spaces whole, and each path once', () => {
    expect(paths('read @"my notes.md" and @"my notes.md" again, and @a')).toEqual(['my notes.md', 'a']);
  });

  it('are never an email address, a lone @, or anything in code', () => {
    expect(paths('mail me@example.com or @ alone')).toEqual([]);
    expect(paths('run `npm i @types/node` now')).toEqual([]);
    expect(paths('``a ` @inner`` then @outer')).toEqual(['outer']);
    expect(paths('```\nimport x from "@scope/pkg";\n@fenced\n```\nafter @real')).toEqual(['real']);
    expect(paths('~~~ts\n@tilde\n~~~\n@after')).toEqual(['after']);
  });

  it('an unclosed backtick does not hide what follows', () => {
    expect(paths('a ` tick then @file.ts')).toEqual(['file.ts']);
  });

  it('give where each @ stands in the prompt', () => {
    expect(promptMentions('x `y` @a\n@b')).toEqual([
      { path: 'a', at: 6 },
      { path: 'b', at: 9 },
    ]);
  });
});
