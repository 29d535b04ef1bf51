import type { TurnError } from '../screen/turn-controller';

/** What a failed model call means for the user: a word or two for the status bar, one line of what to do. */
export interface ErrorAdvice {
  readonly status: string;
  readonly text: string;
}

/**
 * One line per provider failure, saying what to do in this screen. The Agent's own notice (the
 * server's words and its hint) stays in the transcript; this is what the flash and the status
 * bar say. `recall` is the key that brings the failed prompt back (↑).
 */
export function errorAdvice(error: TurnError, model: string, recall: string): ErrorAdvice {
  const again = `${recall} brings the prompt back`;
  switch (error.kind) {
    case 'auth':
      return {
        status: 'key refused',
        text: "the key was refused: set a valid OPENAI_API_KEY (or your provider's key variable) and start tole again, or /connect",
      };
    case 'not_found':
      return {
        status: 'model not found',
        text: `no model "${model}" on this server: /model NAME picks another, then ${again}`,
      };
    case 'transient':
      return /could not reach/.test(error.message)
        ? { status: 'server unreachable', text: `${error.hint}; once it answers, ${again}` }
        : { status: 'server error', text: `${error.hint}; ${again}` };
    case 'rate_limit':
      return { status: 'rate limited', text: `${error.hint}; ${again}` };
    case 'context_overflow':
      return { status: 'context full', text: error.hint };
    case 'tool_unsupported':
      return { status: 'no tool calls', text: `${error.hint}; /model NAME switches` };
    case 'stream_dropped':
      return { status: 'stream dropped', text: `${error.hint}; ${again}` };
    default:
      return { status: error.kind.replace(/_/g, ' '), text: error.hint || error.message };
  }
}
