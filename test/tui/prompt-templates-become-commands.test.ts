import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPromptTemplates } from '../../src/cli/prompt-templates';
import { expandTemplate, parseTemplate } from '../../src/tui/commands/prompt-template';
import { tempDirForTest } from '../support/after-the-test';

describe('prompt templates', () => {
  it('put the arguments in: $ARGUMENTS whole, $1… each word (a quoted phrase is one), once', () => {
    const template = parseTemplate(
      'review',
      '---\ndescription: review a file for bugs\n---\nReview $1 for $2. Notes: $ARGUMENTS. Missing: [$3]',
      'user',
    );
    expect(template.description).toBe('review a file for bugs');
    expect(expandTemplate(template, 'src/a.ts "race conditions"')).toBe(
      'Review src/a.ts for race conditions. Notes: src/a.ts "race conditions". Missing: []',
    );
    // An argument holding $1 is not expanded again.
    expect(expandTemplate(template, '$2 x')).toContain('Review $2 for x.');
    expect(parseTemplate('plain', 'no front matter', 'user')).toMatchObject({
      description: '',
      body: 'no front matter',
    });
  });

  it("are read from the user's prompts folder, and from the project's only when it is trusted", () => {
    const home = tempDirForTest('tole-templates-');
    const cwd = tempDirForTest('tole-templates-ws-');
    const env = { HOME: home, XDG_CONFIG_HOME: join(home, 'xdg') };
    mkdirSync(join(home, 'xdg', 'tole', 'prompts'), { recursive: true });
    mkdirSync(join(cwd, '.tole', 'prompts'), { recursive: true });
    writeFileSync(join(home, 'xdg', 'tole', 'prompts', 'Explain.md'), 'Explain $ARGUMENTS');
    writeFileSync(join(home, 'xdg', 'tole', 'prompts', 'model.md'), 'shadows a command');
    writeFileSync(join(home, 'xdg', 'tole', 'prompts', 'notes.txt'), 'not markdown');
    writeFileSync(join(cwd, '.tole', 'prompts', 'ship.md'), 'Ship it');
    const reserved = new Set(['model']);
    const names = (trusted: boolean) =>
      loadPromptTemplates(env, cwd, trusted, reserved).map((t) => `${t.name}:${t.from}`);
    expect(names(false)).toEqual(['explain:user']);
    expect(names(true)).toEqual(['explain:user', 'ship:project']);
  });
});
