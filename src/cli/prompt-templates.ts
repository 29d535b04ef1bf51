import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseTemplate, type PromptTemplate } from '../tui/commands/prompt-template';
import { userConfigPath } from './config';
import { readRegularFile } from '../core/regular-file';

/** A template file larger than this is not read. */
const MAX_TEMPLATE_BYTES = 64 * 1024;

/**
 * The prompt templates in force: the user's (`$XDG_CONFIG_HOME/tole/prompts/*.md`) and, only in
 * a trusted folder, the project's (`.tole/prompts/*.md`, which trust hashes with the rest of
 * `.tole`); a project's template of the same name replaces the user's. A name is the file's name
 * without `.md`, lower-cased; a name a built-in command has is left to the command.
 */
export function loadPromptTemplates(
  env: NodeJS.ProcessEnv,
  cwd: string,
  projectTrusted: boolean,
  reserved: ReadonlySet<string>,
): PromptTemplate[] {
  const found = new Map<string, PromptTemplate>();
  const places: [string, 'user' | 'project'][] = [[join(dirname(userConfigPath(env)), 'prompts'), 'user']];
  if (projectTrusted) places.push([join(cwd, '.tole', 'prompts'), 'project']);
  for (const [dir, from] of places) {
    let names: string[];
    try {
      names = readdirSync(dir).filter((name) => name.endsWith('.md'));
    } catch {
      continue;
    }
    for (const file of names.sort()) {
      const name = file.slice(0, -3).toLowerCase();
      if (!/^[a-z][\w-]*$/.test(name) || reserved.has(name)) continue;
      try {
        const text = readRegularFile(join(dir, file));
        if (text.length > MAX_TEMPLATE_BYTES) continue;
        found.set(name, parseTemplate(name, text.toString('utf8'), from));
      } catch {
        // Not a readable file (a folder named .md, a dangling link): not a template.
      }
    }
  }
  return [...found.values()];
}
