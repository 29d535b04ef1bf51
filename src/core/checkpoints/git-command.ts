import { spawn, spawnSync } from 'node:child_process';
import { lockInMessage, settleLock } from './git-locks';
import { commandOf, GitStopped, PROBE_LIMIT_MS, killGroup, waitUnlessStopped } from './git-stop';
import { FSMONITOR_ARGS, type FsmonitorAnswer, fsmonitorEnv } from './git-fsmonitor';
import { fifoMessage, watchForFifo } from '../fifo-watch';

/**
 * One run of the `git` binary against tole's own checkpoint directory. The environment is
 * built from nothing: no inherited `GIT_*` variable (a hook's GIT_INDEX_FILE, GIT_DIR) can point
 * git at the user's repository, no user or system config is read (a hostile or unusual config
 * cannot add filters, hooks or fsmonitor commands), and pathspecs are literal.
 */
export interface GitTarget {
  readonly gitDir: string;
  readonly workTree: string;
  /** The git binary; `git` on PATH unless a test names another. */
  readonly binary: string;
  readonly path: string;
  /** The waits between runs while another git holds a lock; LOCK_WAITS_MS unless a test names shorter ones. */
  readonly lockWaitsMs?: readonly number[];
  /** An index file of one scan's own (own-index.ts) in place of the directory's `index`. */
  readonly indexFile?: string;
  /** The change journal's answer, given to git as its fsmonitor hook (git-fsmonitor.ts): only a scan's gits. */
  readonly fsmonitor?: FsmonitorAnswer;
}

interface GitRun {
  readonly code: number;
  readonly stdout: Buffer;
  readonly stderr: string;
}

export class GitFailure extends Error {
  override readonly name = 'GitFailure';
  constructor(
    readonly args: readonly string[],
    readonly code: number,
    readonly stderr: string,
  ) {
    // git's whole message: its first line often says what went wrong and its last what to do.
    const message = stderr.trim().replace(/\s*\n\s*/g, ' ');
    super(
      `git ${commandOf(args)} failed (exit ${code}): ${message.length > MAX_MESSAGE_CHARS ? `${message.slice(0, MAX_MESSAGE_CHARS)}…` : message || 'no message'}`,
    );
  }
}

/** git's message is shown whole up to this many characters. */
const MAX_MESSAGE_CHARS = 2000;

/** Caps what one git run may print before it is stopped: a runaway listing must not eat the heap. */
const MAX_OUTPUT_BYTES = 256 * 1024 * 1024;

/**
 * Every object and ref a checkpoint's gits write is fsynced before the git answers
 * (`core.fsync`, git 2.36 on): the session names a checkpoint right after it is taken, and a
 * power loss must not leave it naming one whose objects never reached the disk. git's default
 * syncs packs and their indexes but not loose objects or refs; these keep the default and add
 * both. `core.fsyncMethod=batch` lets a git that writes many objects at once (a scan's
 * `update-index` and `write-tree`) flush them with one full fsync at its end instead of one each;
 * a git that writes one object at a time (`hash-object`) still fsyncs each before it answers.
 * (`mktree` reads no config at all: tole writes its trees itself, object-pack.ts.) Through the
 * environment (which outranks the directory's config,
 * so directories made before this are synced too), not `-c`: the command lines stay those
 * idle-gits.ts knows. An older git ignores the keys (its loose objects are then not synced).
 */
const DURABLE_OBJECTS: NodeJS.ProcessEnv = {
  GIT_CONFIG_COUNT: '2',
  GIT_CONFIG_KEY_0: 'core.fsync',
  GIT_CONFIG_VALUE_0: 'objects,derived-metadata,reference',
  GIT_CONFIG_KEY_1: 'core.fsyncMethod',
  GIT_CONFIG_VALUE_1: 'batch',
};

export function gitEnv(target: GitTarget): NodeJS.ProcessEnv {
  return {
    PATH: target.path,
    GIT_DIR: target.gitDir,
    GIT_WORK_TREE: target.workTree,
    GIT_CONFIG_NOSYSTEM: '1',
    // Nor the system's attributes file: what a checkpoint stores of a file depends on the workspace alone.
    GIT_ATTR_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_LITERAL_PATHSPECS: '1',
    GIT_TERMINAL_PROMPT: '0',
    GIT_AUTHOR_NAME: 'tole',
    GIT_AUTHOR_EMAIL: 'tole@localhost',
    GIT_COMMITTER_NAME: 'tole',
    GIT_COMMITTER_EMAIL: 'tole@localhost',
    LC_ALL: 'C',
    ...DURABLE_OBJECTS,
    ...(target.indexFile === undefined ? {} : { GIT_INDEX_FILE: target.indexFile }),
    ...(target.fsmonitor === undefined ? {} : fsmonitorEnv(target.fsmonitor)),
  };
}

/**
 * The command line that runs git so that it dies with tole: where util-linux's `setpriv` is on
 * the PATH, git runs under `setpriv --pdeathsig KILL` (the kernel kills it when tole ends, even
 * by SIGKILL, and a lock it held is then stale: see git-locks.ts). Node has no prctl of its own.
 */
export function diesWithTole(target: GitTarget, args: readonly string[]): string[] {
  return hasSetpriv(target.path)
    ? ['setpriv', '--pdeathsig', 'KILL', '--', target.binary, ...args]
    : [target.binary, ...args];
}

const setprivOn = new Map<string, boolean>();

function hasSetpriv(path: string): boolean {
  let known = setprivOn.get(path);
  if (known === undefined) {
    const probe = spawnSync('setpriv', ['--pdeathsig', 'KILL', '--', 'true'], {
      env: { PATH: path },
      stdio: 'ignore',
      timeout: PROBE_LIMIT_MS,
      killSignal: 'SIGKILL',
    });
    known = probe.status === 0;
    setprivOn.set(path, known);
  }
  return known;
}

/**
 * One run of git, killed with its process group when `signal` aborts (the work's time limit or
 * the user's Esc): the promise then rejects with a GitStopped at once, without waiting for pipes
 * a stray grandchild may still hold. A git found waiting on a FIFO of the workspace (fifo-watch.ts)
 * is killed the same way, its GitStopped naming the FIFO.
 */
export function runGit(
  target: GitTarget,
  args: readonly string[],
  signal: AbortSignal,
  input?: Buffer | string,
): Promise<GitRun> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new GitStopped(args, signal.reason));
    const [command, ...argv] = diesWithTole(target, target.fsmonitor ? [...FSMONITOR_ARGS, ...args] : args);
    const child = spawn(command!, argv, {
      cwd: target.workTree,
      env: gitEnv(target),
      stdio: ['pipe', 'pipe', 'pipe'],
      // Its own process group, so that a stop kills whatever it started too.
      detached: true,
    });
    const stop = (): void => {
      unwatch();
      killGroup(child);
      reject(new GitStopped(args, signal.reason));
    };
    const unwatch = watchForFifo(child.pid, (fifo) => {
      signal.removeEventListener('abort', stop);
      killGroup(child);
      reject(new GitStopped(args, new Error(fifoMessage(fifo))));
    });
    signal.addEventListener('abort', stop, { once: true });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let size = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_OUTPUT_BYTES) killGroup(child);
      else out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (error) => {
      unwatch();
      signal.removeEventListener('abort', stop);
      reject(error);
    });
    child.on('close', (code) => {
      unwatch();
      signal.removeEventListener('abort', stop);
      resolve({ code: code ?? -1, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8') });
    });
    child.stdin.on('error', () => {});
    child.stdin.end(input ?? '');
  });
}

/**
 * Runs git and returns its stdout; a non-zero exit throws a GitFailure naming git's message. A run
 * that found one of git's lock files in tole's directory runs again: at once when the lock was
 * stale (its git is gone) and is removed, after a short wait while another git holds it.
 */
export async function git(
  target: GitTarget,
  args: readonly string[],
  signal: AbortSignal,
  input?: Buffer | string,
): Promise<Buffer> {
  const run = await runGitPastLocks(target, args, signal, input);
  if (run.code !== 0) throw new GitFailure(args, run.code, run.stderr);
  return run.stdout;
}

/** `runGit`, run again while it fails on a lock file of tole's directory (see `git`). */
export async function runGitPastLocks(
  target: GitTarget,
  args: readonly string[],
  signal: AbortSignal,
  input?: Buffer | string,
): Promise<GitRun> {
  const waitsMs = target.lockWaitsMs ?? LOCK_WAITS_MS;
  let run = await runGit(target, args, signal, input);
  for (let attempt = 0; run.code !== 0 && attempt < waitsMs.length; attempt++) {
    const lock = lockInMessage(run.stderr);
    if (lock === null) break;
    if (settleLock(target.gitDir, lock) === 'held') await waitUnlessStopped(waitsMs[attempt]!, signal, args);
    run = await runGit(target, args, signal, input);
  }
  return run;
}

/** Waits between runs while another git holds a lock: git runs here take milliseconds to seconds (6.4 s in all). */
const LOCK_WAITS_MS: readonly number[] = [20, 50, 100, 200, 400, 800, 1600, 3200];
