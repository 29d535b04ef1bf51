/**
 * The environment tole gives the commands it starts (the model's bash calls, hooks, and any
 * server tole launches): this process's environment without its secrets, so that a command the
 * model wrote cannot read the user's keys and send them anywhere.
 */

/** A variable whose name holds one of these words (any case) is taken for a secret. */
const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL/i;

/** tole's own provider variables: where the key goes is not the model's business either. */
const TOLE_PROVIDER_VARS: readonly string[] = ['OPENAI_API_KEY', 'OPENAI_BASE_URL'];

/**
 * tole's own variables that hold a credential or lead to one (the team server's URL may carry
 * its password): never given to a child, whatever `passEnv` says.
 */
const TOLE_CREDENTIAL_VARS: readonly string[] = [...TOLE_PROVIDER_VARS, 'TOLE_SYNC_URL'];

/** `scheme://user:password@host`: a URL that carries a password. */
const URL_WITH_PASSWORD = /^[a-z][a-z0-9+.-]*:\/\/[^/@\s]*:[^/@\s]*@/i;
/** The same anywhere in a value (a list of URLs, a connection string after an option). */
const URL_WITH_PASSWORD_INSIDE = /[a-z][a-z0-9+.-]*:\/\/[^/@\s]*:[^/@\s]*@/i;

interface ChildEnvOptions {
  /** Names the user's own config lets through although they look secret (`passEnv`). */
  readonly passEnv?: readonly string[];
  /** More names to drop whatever they look like and whatever `passEnv` says: the providers' key variables, for one. */
  readonly drop?: readonly string[];
}

/**
 * Whether a variable is kept out of child processes (unless passed through): a secret-looking
 * name, or a value that is a URL carrying a password whatever the name (DATABASE_URL, REDIS_URL,
 * HTTPS_PROXY with a user and password in it).
 */
function isWithheld(name: string, value: string, drop: readonly string[] = []): boolean {
  return (
    SECRET_NAME.test(name) ||
    TOLE_PROVIDER_VARS.includes(name) ||
    drop.includes(name) ||
    URL_WITH_PASSWORD_INSIDE.test(value)
  );
}

/**
 * Whether a variable never reaches a child, `passEnv` or not: tole's credential variables, the
 * extra names given, and any `TOLE_*` variable whose value is a URL with a password in it.
 */
export function isToleCredential(name: string, value: string, drop: readonly string[] = []): boolean {
  if (TOLE_CREDENTIAL_VARS.includes(name) || drop.includes(name)) return true;
  return name.toUpperCase().startsWith('TOLE_') && URL_WITH_PASSWORD.test(value.trim());
}

/** `env` without secrets and tole's credential variables; a secret-looking name listed in `passEnv` is kept. */
export function childEnv(
  env: Readonly<Record<string, string | undefined>>,
  options: ChildEnvOptions = {},
): Record<string, string> {
  const pass = new Set(options.passEnv ?? []);
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || isToleCredential(name, value, options.drop)) continue;
    if (pass.has(name) || !isWithheld(name, value, options.drop)) out[name] = value;
  }
  return out;
}
