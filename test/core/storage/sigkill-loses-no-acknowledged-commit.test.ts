import { spawn } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { seededRandom, type Random } from '../../../src/core/clock';
import { openStore, tempDir, testSeed } from '../../support/storage-fixtures';
import { childScript } from '../../support/test-children';

const dir = tempDir('tole-sigkill-');
afterAll(() => dir.remove());

const LANES = 2;
/**
 * 2 x 12 kills, each at a random point of a commit (small or 512 KB), and each one reopened and
 * checked. TOLE_SIGKILL_KILLS=N runs N per lane for a longer soak.
 */
const KILLS_PER_LANE = Number(process.env.TOLE_SIGKILL_KILLS ?? 12);
const WRITER = childScript('storage-commit-writer');

interface Run {
  readonly path: string;
  readonly acked: readonly number[];
}

/**
 * Starts the writer and SIGKILLs it right after its `target`-th acknowledgement reaches us (after
 * 0-2 turns of the event loop): the child is then somewhere in its next commit.
 */
function runUntilKilled(path: string | null, target: number, extraTurns: number): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WRITER, dir.path, ...(path ? [path] : [])], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    let killed = false;
    const kill = (turns: number): void => {
      if (turns > 0) setImmediate(() => kill(turns - 1));
      else child.kill('SIGKILL');
    };
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      if (!killed && (out.match(/^ack /gm)?.length ?? 0) >= target) {
        killed = true;
        kill(extraTurns);
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (signal !== 'SIGKILL') return reject(new Error(`writer ended by itself (code ${code}): ${err}`));
      const complete = out.slice(0, out.lastIndexOf('\n') + 1).split('\n');
      const session = complete.find((line) => line.startsWith('session '))?.slice('session '.length);
      if (!session) return reject(new Error(`writer printed no session path: ${err}`));
      resolve({
        path: session,
        acked: complete.filter((line) => line.startsWith('ack ')).map((line) => Number(line.slice(4))),
      });
    });
  });
}

async function lane(random: Random, stats: { kills: number; torn: number; acked: number }): Promise<void> {
  let path: string | null = null;
  const everAcked: number[] = [];
  for (let k = 0; k < KILLS_PER_LANE; k++) {
    const run = await runUntilKilled(path, 1 + Math.floor(random.float() * 12), Math.floor(random.float() * 3));
    path = run.path;
    everAcked.push(...run.acked);
    stats.kills++;
    stats.acked += run.acked.length;

    const store = openStore(path);
    if (store.report.tornTail) stats.torn++;
    const present = new Set([...store.tree.all()].map((entry) => entry.seq));
    const lost = everAcked.filter((seq) => !present.has(seq));
    expect(lost, `acknowledged seqs lost after kill ${k} of ${path}`).toEqual([]);
    expect(store.lastSeq).toBeGreaterThanOrEqual(Math.max(...everAcked));
    store.close();
  }
}

describe('a writer killed with SIGKILL at random moments', () => {
  it('never loses an acknowledged commit, and the file always reopens', async () => {
    const seed = testSeed('sigkill');
    const random = seededRandom(seed);
    const stats = { kills: 0, torn: 0, acked: 0 };
    await Promise.all(
      Array.from({ length: LANES }, () => lane(seededRandom(Math.floor(random.float() * 0x7fffffff)), stats)),
    );
    console.log(
      `sigkill: ${stats.kills} kills, ${stats.acked} acknowledged commits checked, ${stats.torn} torn tails repaired`,
    );
    expect(stats.kills).toBe(LANES * KILLS_PER_LANE);
    // Headroom for a loaded 2-core machine: the kills run one after another in each lane, and each
    // starts a process and replays a file that grows with every kill.
  }, 180_000);
});
