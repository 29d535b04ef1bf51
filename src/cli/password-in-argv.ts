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
  return `tole: warning: the password in the ${flag} URL is visible to every user of this machine (ps) while tole runs; put it in ${SAFER_PASSWORD_PLACES}\n`;
}
