/** The tool a `!command` runs through: the user's shell commands take the model's path. */
export const SHELL_TOOL = 'bash';

/**
 * The shell command of a `!command` prompt (what follows the `!`, possibly empty), or null for
 * any other prompt. Leading blanks before the `!` are allowed, as the prompt is trimmed when sent.
 */
export function shellCommandOf(prompt: string): string | null {
  const trimmed = prompt.trimStart();
  return trimmed.startsWith('!') ? trimmed.slice(1) : null;
}
