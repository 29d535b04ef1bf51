import { urlHasPassword } from '../core/sync/url-password';
import type { CliArgs } from './args';

/** Where the team server's password can be kept out of sight: said by every warning about one in plain view. */
export const SAFER_PASSWORD_PLACES =
  'PGPASSWORD (or TOLE_SYNC_URL) in the environment, ~/.pgpass (or the file PGPASSFILE names), or tole sync --password-stdin';

/**
 * The warning for a server URL with a password on the command line (`tole sync --to`, any
 * `--from`): every user of the machine sees it in `ps` while tole runs. Null when there is none.
 */
export function passwordInArgvWarning(args: CliArgs): string | null {
  const given: [string, string | undefined][] = [
    ['--to', args.command === 'sync' ? args.to : undefined],
    ['--from', args.from],
  ];
  const flag = given.find(([, url]) => url !== undefined && urlHasPassword(url))?.[0];
  if (flag === undefined) return null;
  return `tole: warning: the password in the ${flag} URL is visible to every user of this machine (ps) while tole starts; put it in ${SAFER_PASSWORD_PLACES}\n`;
}

/** `argv` with the password of every URL in it replaced by `***`: what `ps` may show instead. */
export function argvWithoutPasswords(argv: readonly string[]): string[] {
  return argv.map((arg) => {
    // `--to=URL` as well as a URL on its own.
    const at = arg.indexOf('://');
    if (at === -1) return arg;
    const start = arg.lastIndexOf('=', at) + 1;
    const url = arg.slice(start);
    if (!urlHasPassword(url)) return arg;
    try {
      const parsed = new URL(url);
      parsed.password = '***';
      return arg.slice(0, start) + parsed.toString();
    } catch {
      return arg.slice(0, start) + url.replace(/:[^:@/]*@/, ':***@');
    }
  });
}
