/**
 * The environment tole gives the commands it starts (the model's bash calls, hooks, and any
 * server tole launches): this process's environment without its secrets, so that a command the
 * model wrote cannot read the user's keys and send them anywhere.
 */

/** A variable whose name holds one of these words (any case) is taken for a secret. */
export const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL/i;

/** tole's own provider variables: where the key goes is not the model's business either. */
export const TOLE_PROVIDER_VARS: readonly string[] = ['OPENAI_API_KEY', 'OPENAI_BASE_URL'];

export interface ChildEnvOptions {
  /** Names the user's own config lets through although they look secret (`passEnv`). */
  readonly passEnv?: readonly string[];
  /** More names to drop whatever they look like: the providers' key variables, for one. */
  readonly drop?: readonly string[];
}

/** Whether a variable is kept out of child processes (unless passed through). */
export function isWithheld(name: string, drop: readonly string[] = []): boolean {
  return SECRET_NAME.test(name) || TOLE_PROVIDER_VARS.includes(name) || drop.includes(name);
}

/** `env` without secrets and provider variables, except those named in `passEnv`. */
export function childEnv(
  env: Readonly<Record<string, string | undefined>>,
  options: ChildEnvOptions = {},
): Record<string, string> {
  const pass = new Set(options.passEnv ?? []);
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (pass.has(name) || !isWithheld(name, options.drop)) out[name] = value;
  }
  return out;
}
