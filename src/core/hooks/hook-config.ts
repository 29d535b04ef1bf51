/** Shell hooks from config: which commands run on which lifecycle event. */

export const HOOK_EVENTS = [
  'sessionStart',
  'userPrompt',
  'preToolUse',
  'postToolUse',
  'turnError',
  'preCompact',
] as const;

export type HookEvent = (typeof HOOK_EVENTS)[number];

/** One command, or several run in order. */
type HookCommands = string | readonly string[];

/**
 * The `hooks` section of the config (the CLI validates it with zod):
 * `{ "timeoutMs": 60000, "preToolUse": ["./check.sh"], "userPrompt": "./redact.sh" }`.
 */
export type HooksConfig = { readonly timeoutMs?: number } & { readonly [E in HookEvent]?: HookCommands };

export const DEFAULT_HOOK_TIMEOUT_MS = 60_000;
/** More commands than this on one event is a config mistake, not a plan. */
const MAX_COMMANDS_PER_EVENT = 32;

export function commandsFor(config: HooksConfig, event: HookEvent): readonly string[] {
  const value = config[event];
  if (value === undefined) return [];
  const list = typeof value === 'string' ? [value] : value;
  const commands = list.filter((command) => command.trim() !== '');
  if (commands.length > MAX_COMMANDS_PER_EVENT) {
    throw new RangeError(
      `hooks.${event} lists ${commands.length} commands; at most ${MAX_COMMANDS_PER_EVENT} are allowed`,
    );
  }
  return commands;
}
