/**
 * A child process that opens a session for writing and commits one entry per line it reads on
 * stdin, printing `ack <seq>` after each commit returned or `refused <kind>: <message>` when it
 * threw; it holds the session until stdin ends or it is killed. Usage: storage-stdin-writer.ts PATH
 */
import { createInterface } from 'node:readline';
import { seededRandom, systemClock } from '../../src/core/clock';
import { isStorageError } from '../../src/core/storage/errors';
import { SessionStore } from '../../src/core/storage/session-store';

const store = SessionStore.open(process.argv[2]!, { clock: systemClock, random: seededRandom(process.pid) });
process.stdout.write(`ready ${process.pid} ${store.lastSeq}\n`);

for await (const line of createInterface({ input: process.stdin })) {
  try {
    const id = store.newEntryId();
    const parentId = store.registers.get<string>('lane.leaf', 'main') ?? null;
    const [entry] = store.commit([
      { kind: 'entry', timestamp: store.now(), id, parentId, type: 'user', payload: { text: line } },
      { kind: 'register', op: 'set', namespace: 'lane.leaf', key: 'main', value: id },
    ]);
    process.stdout.write(`ack ${entry!.seq}\n`);
  } catch (error) {
    const kind = isStorageError(error) ? error.kind : 'other';
    process.stdout.write(`refused ${kind}: ${(error as Error).message}\n`);
  }
}
store.close();
