/**
 * A child process for the crash tests: opens (or creates) a session and commits in a loop,
 * printing `ack <seq>` only after `commit` returned. Every fourth commit is large, so that a
 * SIGKILL can land in the middle of its write. Usage: storage-commit-writer.ts DIR [PATH]
 */
import { existsSync } from 'node:fs';
import { seededRandom, systemClock } from '../../src/core/clock';
import { SessionStore } from '../../src/core/storage/session-store';

const [dir, path] = process.argv.slice(2);
const options = { clock: systemClock, random: seededRandom(process.pid) };
const store =
  path && existsSync(path) ? SessionStore.open(path, options) : SessionStore.create(dir!, { ...options, cwd: dir! });
process.stdout.write(`session ${store.path}\n`);

let parent = store.registers.get<string>('lane.leaf', 'main') ?? null;
const big = 'ß'.repeat(256 * 1024);
for (let i = 0; ; i++) {
  const id = store.newEntryId();
  const text = i % 4 === 3 ? `${i} ${big}` : `commit ${i} from pid ${process.pid} ✓`;
  const [entry] = store.commit([
    { kind: 'entry', timestamp: store.now(), id, parentId: parent, type: 'user', payload: { text } },
    { kind: 'register', op: 'set', namespace: 'lane.leaf', key: 'main', value: id },
  ]);
  parent = id;
  process.stdout.write(`ack ${entry!.seq}\n`);
}
