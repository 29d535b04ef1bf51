/** A child process that opens a session for writing and holds it until killed. Usage: storage-lock-holder.ts PATH */
import { seededRandom, systemClock } from '../../src/core/clock';
import { SessionStore } from '../../src/core/storage/session-store';

const store = SessionStore.open(process.argv[2]!, { clock: systemClock, random: seededRandom(process.pid) });
process.stdout.write(`ready ${process.pid} ${store.lastSeq}\n`);
setInterval(() => {}, 1 << 30);
