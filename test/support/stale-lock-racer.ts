/**
 * One of several processes racing to take over a stale lock. Usage: stale-lock-racer.ts PATH GO_FILE
 * Waits (spinning) until GO_FILE exists, then opens PATH for writing once and prints `won` or
 * `locked`, then holds the session until stdin closes so that the winner's lock stays in place.
 */
import { existsSync } from 'node:fs';
import { seededRandom, systemClock } from '../../src/core/clock';
import { isStorageError } from '../../src/core/storage/errors';
import { SessionStore } from '../../src/core/storage/session-store';

const [path, go] = [process.argv[2]!, process.argv[3]!];
process.stdout.write('ready\n');
while (!existsSync(go)) {
  // Spin: a timer would add milliseconds of skew between the racers.
}
try {
  const store = SessionStore.open(path, { clock: systemClock, random: seededRandom(process.pid) });
  process.stdout.write('won\n');
  process.stdin.on('end', () => store.close()).resume();
} catch (error) {
  process.stdout.write(isStorageError(error, 'locked') ? 'locked\n' : `error ${(error as Error).message}\n`);
  process.exit(0);
}
