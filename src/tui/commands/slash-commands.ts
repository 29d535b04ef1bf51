import type { EventSink } from '../../core/session/events';

/**
 * Commands typed into the prompt: `/name args`. The screen runs the ones it owns; the host (the
 * CLI) may add more, such as `/compact` and `/fork`, which need more than the screen has.
 */

export interface SlashCommand {
  readonly name: string;
  readonly args: string;
  readonly help: string;
}

export const BUILT_IN_COMMANDS: readonly SlashCommand[] = [
  { name: 'help', args: '', help: 'show every key and command' },
  { name: 'model', args: '[name]', help: 'show the model, or use another from the next call on' },
  { name: 'label', args: '[text]', help: 'label the selected entry in the tree (no text: remove the label)' },
  {
    name: 'name',
    args: '[text]',
    help: 'name this session (no text: a field to edit the name, empty removes it); /rename is the same',
  },
  {
    name: 'retry',
    args: '',
    help: 'ask the model again from the selected answer (or the last one), as a new sibling branch; the old answer stays',
  },
  {
    name: 'cost',
    args: '',
    help: 'what the calls cost: session, priced and unpriced, per model, per branch; ~ marks the estimate of a call in flight',
  },
  { name: 'plan', args: '', help: "the branch's plan full size, live (Ctrl-O)" },
  { name: 'copy', args: '', help: 'copy the last answer on this path to the clipboard (OSC 52)' },
  { name: 'queue', args: '', help: 'list the prompts queued behind the running turn, to edit or remove one' },
  {
    name: 'new',
    args: '',
    help: 'start a new session with the same model, profile, provider and trust; this one is kept (/resume goes back)',
  },
  {
    name: 'resume',
    args: '[id]',
    help: 'pick another session and switch to it here (this one is saved and let go); with an id, open that one',
  },
  { name: 'tree', args: '', help: 'focus the conversation tree' },
  { name: 'usage', args: '', help: 'focus the usage pane' },
  { name: 'theme', args: '<name|path>', help: 'switch the colour theme (dark, light, high-contrast or a .json file)' },
  { name: 'connect', args: '', help: 'look for a local model server (Ollama, llama.cpp, LM Studio) and use it' },
  { name: 'quit', args: '', help: 'leave tole (the session is saved as it goes)' },
];

/** What a host command may know and use of the screen. */
interface HostCommandContext {
  /** The entry it is about: the tree's selection, else the checked-out entry; null in an empty session. */
  readonly targetId: string | null;
  readonly readOnly: boolean;
  /**
   * Runs work in a turn's place (prompts typed meanwhile queue behind it, Esc stops it), with
   * `task` shown while it runs. Null, without running it, when a turn runs already.
   */
  runTask<T>(task: string, work: (signal: AbortSignal, emit: EventSink) => Promise<T>): Promise<T | null>;
}

/** A report of several lines (`/context`): shown in an overlay that Esc closes. */
export interface CommandReport {
  readonly title: string;
  readonly lines: readonly string[];
}

/** A command the host adds. `run` returns the words to show (or a report), or throws an Error whose message is shown. */
export interface HostCommand extends SlashCommand {
  run(
    args: string,
    context: HostCommandContext,
  ): Promise<string | CommandReport | void> | string | CommandReport | void;
}

export interface ParsedCommand {
  readonly name: string;
  readonly args: string;
}

/** `/model gpt-4.1` → { name: 'model', args: 'gpt-4.1' }; null when the text is a prompt. */
export function parseCommand(text: string): ParsedCommand | null {
  const match = /^\/([a-z][\w-]*)(?:\s+([\s\S]*))?$/i.exec(text.trim());
  if (!match) return null;
  return { name: match[1]!.toLowerCase(), args: (match[2] ?? '').trim() };
}
