/**
 * Another tole holding a session: the storage-lock-holder child opens the session for writing and
 * holds it until killed.
 */
import type { StartedChild } from './spawn-node';
import { startChild } from './test-children';

/**
 * Starts a lock holder on `path`; resolves once its `ready PID LASTSEQ` line says it holds the
 * lock, and rejects with its stderr if it ends before. Kill its `child` to let the lock go (it is
 * killed after `timeoutMs` in any case).
 */
export async function holdingTheLock(path: string, timeoutMs = 60_000): Promise<StartedChild> {
  const holder = startChild('storage-lock-holder', [path], { timeoutMs });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    holder.child.stdout!.on('data', (chunk: Buffer | string) => {
      out += String(chunk);
      const ready = /^ready (\d+) /.exec(out);
      if (ready === null) return;
      if (Number(ready[1]) === holder.child.pid) resolve();
      else reject(new Error(`the lock holder said it was pid ${ready[1]}, but it runs as ${holder.child.pid}`));
    });
    void holder.done.then((run) => reject(new Error(`the lock holder ended before it held ${path}: ${run.stderr}`)));
  });
  return holder;
}
