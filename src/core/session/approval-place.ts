import { homedir, hostname, userInfo } from 'node:os';
import { join } from 'node:path';

/**
 * Where an approval is given: this machine, this user and this tole home (where the user's
 * sessions live), told apart without the network. A pending call approved elsewhere (its session
 * file copied to another machine or home, or pulled from the team server) is not run on that
 * approval: resume asks again, or denies where no one can be asked.
 */
export function approvalPlace(toleHome: string = join(homedir(), '.tole')): string {
  return `${userName()}@${hostname()}:${toleHome}`;
}

function userName(): string {
  const uid = process.getuid?.() ?? -1;
  try {
    return `${userInfo().username}(${uid})`;
  } catch {
    // No passwd entry for this uid (a container): the number alone.
    return `uid ${uid}`;
  }
}
