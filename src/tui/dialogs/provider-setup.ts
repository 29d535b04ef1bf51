/**
 * What the screen needs to help a user who has no model provider yet (first run), and to switch
 * a running session to a local server: the host (the CLI) implements it, the screen draws it.
 */

/** A local server on one of the usual loopback ports. */
export interface LocalServer {
  /** `Ollama`, `llama.cpp`, `LM Studio`. */
  readonly name: string;
  /** `http://127.0.0.1:11434/v1`. */
  readonly baseUrl: string;
  /** The models it lists; null when nothing answered there. */
  readonly models: readonly string[] | null;
}

/** One place tole looked for a provider, and what it found there. */
export interface LookedFor {
  /** `OPENAI_API_KEY`, `--base-url`, `~/.config/tole/config.json`. */
  readonly what: string;
  /** `not set`, `not there`, `no provider in it`. */
  readonly found: string;
}

/** One way to set a provider up: a command or a line of config, and what it is for. */
export interface SetupHint {
  readonly text: string;
  readonly note: string;
}

export interface ProviderSetup {
  /** True when no provider is usable: the panel opens with the screen and prompts wait for one. */
  readonly missing: boolean;
  readonly lookedFor: readonly LookedFor[];
  readonly howTo: readonly SetupHint[];
  /** Where the probe looks: `127.0.0.1`. */
  readonly probeHost: string;
  /** Asks the usual ports, each with a short timeout; every server asked comes back, `models: null` where none answered. */
  probe(): Promise<readonly LocalServer[]>;
  /** From the next model call on, the session talks to `server`, with `model`. */
  use(server: LocalServer, model: string): void;
}
