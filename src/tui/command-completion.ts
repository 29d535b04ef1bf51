import type { SlashCommand } from './slash-commands';

/** What Tab does to a prompt that is a slash command's name being typed. */
export interface Completion {
  /** The prompt after Tab: the one match with a space after it, or the matches' longest common start. */
  readonly value: string;
  /** Every command the typed start matches, for the flash (more than one). */
  readonly matches: readonly SlashCommand[];
}

/**
 * Tab on `/mo`: `/model ` when one command starts so; on `/c`, the longest start the matches
 * share and the list of them. Null when the prompt is not a lone command name being typed (it
 * has a space, a second line, or no leading slash), or nothing matches: Tab then moves the focus.
 */
export function completeCommand(value: string, commands: readonly SlashCommand[]): Completion | null {
  const typed = /^\/([\w-]*)$/.exec(value);
  if (!typed) return null;
  const start = typed[1]!;
  const matches = commands.filter((command) => command.name.startsWith(start));
  if (matches.length === 0) return null;
  if (matches.length === 1) return { value: `/${matches[0]!.name} `, matches };
  let common = matches[0]!.name;
  for (const { name } of matches) while (!name.startsWith(common)) common = common.slice(0, -1);
  return { value: `/${common}`, matches };
}
