import { isToleCredential } from '../child-env';

/**
 * Variables a server process gets from tole's own environment without being named: what a
 * program needs to find its tools and write its files, and nothing that holds a secret.
 */
const BASE_ENV_VARS: readonly string[] = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'TERM',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'TMPDIR',
  'TZ',
];

/**
 * The environment of a stdio server: the base variables, the ones its config passes through by
 * name (`passEnv`), then the values its config sets (`env`). Never tole's whole environment.
 */
export function serverEnvironment(
  hostEnv: Readonly<Record<string, string | undefined>>,
  passEnv: readonly string[],
  env: Readonly<Record<string, string>>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of [...BASE_ENV_VARS, ...passEnv]) {
    const value = hostEnv[name];
    // A value starting with `()` is an exported shell function: never handed on; nor is tole's own credential.
    if (value !== undefined && !value.startsWith('()') && !isToleCredential(name, value)) out[name] = value;
  }
  return { ...out, ...env };
}
