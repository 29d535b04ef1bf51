/** A markdown file that is a `/name` command: its text, with the arguments put in, is sent as a prompt. */
export interface PromptTemplate {
  readonly name: string;
  /** From the front matter's `description:`; shown in `?` and by Tab. */
  readonly description: string;
  readonly body: string;
  /** Where it was read from (for `?`): `user` or `project`. */
  readonly from: 'user' | 'project';
}

/** A template's file: its optional front matter (`---` lines around `key: value` lines), then its body. */
export function parseTemplate(name: string, text: string, from: 'user' | 'project'): PromptTemplate {
  const matter = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(text);
  const description = matter ? (/^description:\s*(.*)$/m.exec(matter[1]!)?.[1]?.trim() ?? '') : '';
  return { name, description, body: matter ? text.slice(matter[0].length) : text, from };
}

/**
 * The prompt a template makes with `args`: `$ARGUMENTS` is all of them as typed, `$1`…`$9` each
 * word (a "quoted phrase" is one), a missing one empty. Substituted once: an argument that holds
 * `$1` stays as it is.
 */
export function expandTemplate(template: PromptTemplate, args: string): string {
  const words = [...args.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);
  return template.body
    .replace(/\$(ARGUMENTS|[1-9])/g, (_, which: string) =>
      which === 'ARGUMENTS' ? args : (words[Number(which) - 1] ?? ''),
    )
    .trim();
}
