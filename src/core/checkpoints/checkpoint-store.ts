import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, type Stats, mkdirSync, realpathSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { git, GitFailure, nulFields, runGit, type GitTarget } from './git-command';

/**
 * Checkpoints of a workspace, kept in a git directory of tole's own under tole's home (one per
 * workspace, named by a hash of its path), with the workspace as its work tree. The user's
 * repository is never read or written: git runs with GIT_DIR pointing at tole's directory, and
 * git itself never descends into a `.git`. The user's `.gitignore` files are honoured (git reads
 * them from the work tree), and so is the built-in list below.
 */
export const BUILTIN_IGNORES = ['.git/', 'node_modules/', '.venv/', '__pycache__/', '.DS_Store', '.tole/'];

export const DEFAULT_MAX_FILE_BYTES = 10 * 1024 * 1024;

export interface CheckpointSettings {
  /** tole's home (`$TOLE_HOME`, else `~/.tole`): checkpoints live under `<home>/checkpoints/`. */
  readonly home: string;
  readonly workspaceRoot: string;
  /** Files larger than this are left out (and the restore preview says so). */
  readonly maxFileBytes?: number;
  /** The user's home directory: a workspace that is the home itself is not snapshotted. */
  readonly userHome?: string;
  readonly gitBinary?: string;
  readonly path?: string;
}

/** A path a checkpoint does not hold, and why. */
export interface LeftOut {
  readonly path: string;
  readonly why: 'too-large' | 'nested-repository';
  readonly bytes?: number;
}

export type TakeResult =
  | { readonly ok: true; readonly id: string; readonly leftOut: readonly LeftOut[] }
  | { readonly ok: false; readonly reason: string };

/** What restoring a checkpoint would do to the workspace as it is now. */
export interface RestorePlan {
  readonly checkpoint: string;
  /** Files the checkpoint holds that are not in the workspace now: created. */
  readonly added: readonly string[];
  /** Files whose bytes, mode or kind differ now: overwritten. */
  readonly changed: readonly string[];
  /** Files in the workspace now that the checkpoint does not hold: removed. */
  readonly removed: readonly string[];
  /** Paths the checkpoint left out (too large, nested repositories): restore leaves them as they are. */
  readonly leftOut: readonly LeftOut[];
}

export function planSize(plan: RestorePlan): number {
  return plan.added.length + plan.changed.length + plan.removed.length;
}

export class Checkpoints {
  private initialized = false;
  private offReported = false;
  /** The newest checkpoint this process made (the next one's parent): saves a git run per checkpoint. */
  private newest: string | null = null;
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly target: GitTarget,
    private readonly maxFileBytes: number,
    private readonly settings: CheckpointSettings,
  ) {}

  private probed: { reason: string | null } | null = null;

  /**
   * Why checkpoints cannot work here at all (no git binary, a workspace that is / or the home
   * directory), or null. Probed once, on first use, so that opening tole does not wait for git.
   */
  get offReason(): string | null {
    this.probed ??= { reason: offReason(this.settings, this.target.binary, this.target.path) };
    return this.probed.reason;
  }

  /** Where a workspace's checkpoints live under tole's home. */
  static directoryFor(home: string, workspaceRoot: string): string {
    const key = createHash('sha256').update(workspaceRoot).digest('hex').slice(0, 16);
    return join(home, 'checkpoints', key);
  }

  static create(settings: CheckpointSettings): Checkpoints {
    const binary = settings.gitBinary ?? 'git';
    const path = settings.path ?? process.env['PATH'] ?? '/usr/bin:/bin';
    // The directory's name (a SHA-256 of the path) is worked out when git first needs it: a
    // session opens before its first checkpoint, and hashing loads the crypto module.
    let gitDir: string | undefined;
    const target: GitTarget = {
      get gitDir() {
        gitDir ??= Checkpoints.directoryFor(settings.home, settings.workspaceRoot);
        return gitDir;
      },
      workTree: settings.workspaceRoot,
      binary,
      path,
    };
    return new Checkpoints(target, settings.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES, settings);
  }

  get directory(): string {
    return this.target.gitDir;
  }

  get enabled(): boolean {
    return this.offReason === null;
  }

  /**
   * Snapshots the workspace as a commit in tole's checkpoint directory. A failure is data: the
   * reason, and whether this is the first time it is reported (tole says it once).
   */
  async take(): Promise<TakeResult & { readonly firstReport?: boolean }> {
    if (this.offReason !== null) return this.off(this.offReason);
    try {
      return await this.serial(async () => {
        await this.init();
        this.clearStaleLock();
        const snap = await this.snapshot();
        const parent =
          this.newest ??
          (await runGit(this.target, ['rev-parse', '-q', '--verify', 'refs/tole/checkpoints'])).stdout
            .toString()
            .trim();
        const message = JSON.stringify({ tole: 'checkpoint', leftOut: snap.leftOut });
        const id = (
          await git(this.target, ['commit-tree', snap.tree, ...(parent ? ['-p', parent] : []), '-m', message])
        )
          .toString()
          .trim();
        // The ref keeps every checkpoint reachable (the chain of parents); the old value is checked,
        // so another tole on the same workspace is never overwritten: that checkpoint then fails.
        await git(this.target, ['update-ref', 'refs/tole/checkpoints', id, ...(parent ? [parent] : [])]);
        this.newest = id;
        return { ok: true as const, id, leftOut: snap.leftOut };
      });
    } catch (error) {
      return this.off(`the workspace could not be snapshotted: ${(error as Error)?.message ?? String(error)}`);
    }
  }

  private off(reason: string): { ok: false; reason: string; firstReport: boolean } {
    const firstReport = !this.offReported;
    this.offReported = true;
    return { ok: false, reason, firstReport };
  }

  /** Whether a checkpoint id names a checkpoint that still exists here. */
  async has(id: string): Promise<boolean> {
    if (!/^[0-9a-f]{40,64}$/.test(id) || !existsSync(join(this.target.gitDir, 'HEAD'))) return false;
    const run = await runGit(this.target, ['cat-file', '-e', `${id}^{commit}`]);
    return run.code === 0;
  }

  /** What restoring `id` would create, overwrite and remove in the workspace as it is now. */
  async plan(id: string): Promise<RestorePlan> {
    return this.serial(() => this.planNow(id));
  }

  /**
   * Brings the workspace back to checkpoint `id`: removes what it does not hold, then writes what
   * differs (git checks out, so it never writes through a symlink). Running it again after a
   * crash finishes the job: it is idempotent. `midway` runs between the two steps (fault tests).
   */
  async restore(id: string, midway?: () => void): Promise<RestorePlan> {
    return this.serial(async () => {
      const plan = await this.planNow(id);
      for (const path of plan.removed) this.removeFile(path);
      midway?.();
      const writes = [...plan.added, ...plan.changed];
      if (writes.length > 0) {
        const list = Buffer.from(writes.map((p) => `${p}\0`).join(''), 'utf8');
        await git(this.target, ['checkout', id, '--pathspec-from-file=-', '--pathspec-file-nul'], list);
      }
      return plan;
    });
  }

  private async planNow(id: string): Promise<RestorePlan> {
    if (this.offReason !== null) throw new Error(`checkpoints are off: ${this.offReason}`);
    if (!(await this.has(id))) throw new Error(`checkpoint ${id.slice(0, 12)} does not exist in ${this.target.gitDir}`);
    await this.init();
    const now = await this.snapshot();
    const leftOut = await this.leftOutOf(id);
    const keep = new Set(leftOut.map((l) => l.path));
    const raw = nulFields(await git(this.target, ['diff-tree', '-r', '-z', '--no-renames', now.tree, `${id}^{tree}`]));
    const added: string[] = [];
    const changed: string[] = [];
    const removed: string[] = [];
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const status = raw[i]!.split(' ')[4]?.[0];
      const path = raw[i + 1]!;
      if (status === 'D') {
        if (!keep.has(path)) removed.push(path);
      } else if (status === 'A') {
        (existsInWorkspace(this.target.workTree, path) ? changed : added).push(path);
      } else {
        changed.push(path);
      }
    }
    return { checkpoint: id, added, changed, removed, leftOut };
  }

  private async leftOutOf(id: string): Promise<LeftOut[]> {
    const body = (await git(this.target, ['cat-file', 'commit', id])).toString('utf8');
    const message = body.slice(body.indexOf('\n\n') + 2).trim();
    try {
      const parsed = JSON.parse(message) as { leftOut?: LeftOut[] };
      return Array.isArray(parsed.leftOut) ? parsed.leftOut : [];
    } catch {
      return [];
    }
  }

  /** Stages the workspace into tole's index (only what changed since the last time) and writes a tree. */
  private async snapshot(): Promise<{ tree: string; leftOut: LeftOut[] }> {
    const candidates = new Set(
      nulFields(
        await git(this.target, ['ls-files', '-z', '--modified', '--deleted', '--others', '--exclude-standard']),
      ),
    );
    const stage: string[] = [];
    const drop: string[] = [];
    const leftOut: LeftOut[] = [];
    for (const path of candidates) {
      if (path.endsWith('/')) {
        leftOut.push({ path: path.slice(0, -1), why: 'nested-repository' });
        continue;
      }
      const stat = lstatOrNull(join(this.target.workTree, path));
      if (stat?.isFile() && stat.size > this.maxFileBytes) {
        leftOut.push({ path, why: 'too-large', bytes: stat.size });
        drop.push(path);
      } else {
        stage.push(path);
      }
    }
    if (stage.length > 0)
      await git(this.target, ['update-index', '-z', '--add', '--remove', '--stdin'], nulList(stage));
    if (drop.length > 0) await git(this.target, ['update-index', '-z', '--force-remove', '--stdin'], nulList(drop));
    const tree = (await git(this.target, ['write-tree'])).toString().trim();
    return { tree, leftOut };
  }

  private async init(): Promise<void> {
    if (this.initialized) return;
    const dir = this.target.gitDir;
    if (!existsSync(join(dir, 'HEAD'))) {
      mkdirSync(dir, { recursive: true });
      const run = spawnSync(this.target.binary, ['init', '-q', '--bare', dir], {
        env: { PATH: this.target.path, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
      });
      if (run.status !== 0) throw new GitFailure(['init'], run.status ?? -1, String(run.stderr));
      for (const [key, value] of CONFIG) await git(this.target, ['config', key, value]);
      writeFileSync(join(dir, 'tole-workspace'), `${this.target.workTree}\n`);
    }
    mkdirSync(join(dir, 'info'), { recursive: true });
    writeFileSync(join(dir, 'info', 'exclude'), `# tole's built-in ignore list\n${BUILTIN_IGNORES.join('\n')}\n`);
    this.initialized = true;
  }

  /**
   * A tole killed while git held the index leaves `index.lock` behind, and every later checkpoint
   * would fail on it. A git run here takes seconds at most, so a lock older than a minute is stale.
   */
  private clearStaleLock(): void {
    const lock = join(this.target.gitDir, 'index.lock');
    const stat = lstatOrNull(lock);
    if (stat && Date.now() - stat.mtimeMs > STALE_LOCK_MS) rmSync(lock, { force: true });
  }

  private removeFile(path: string): void {
    const root = this.target.workTree;
    const full = join(root, path);
    // Never follow a symlinked parent out of the workspace.
    const parent = realpathOrNull(dirname(full));
    if (parent === null || (parent !== root && !parent.startsWith(root + sep))) return;
    rmSync(full, { force: true });
    for (let dir = dirname(full); dir !== root && dir.startsWith(root + sep); dir = dirname(dir)) {
      try {
        rmdirSync(dir);
      } catch {
        break;
      }
    }
  }

  /** Checkpoint runs one at a time: git's index is one file. */
  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }
}

/** An index.lock older than this was left by a process that died holding it. */
const STALE_LOCK_MS = 60_000;

const CONFIG: readonly [string, string][] = [
  ['core.bare', 'false'],
  ['core.autocrlf', 'false'],
  ['core.filemode', 'true'],
  ['core.symlinks', 'true'],
  ['core.quotepath', 'false'],
  ['gc.auto', '0'],
];

function offReason(settings: CheckpointSettings, binary: string, path: string): string | null {
  const root = settings.workspaceRoot;
  if (root === '/' || relative(root, '/') === '')
    return 'the workspace is the filesystem root; start tole in a project folder';
  if (settings.userHome && root === settings.userHome)
    return 'the workspace is your home directory; start tole in a project folder';
  const probe = spawnSync(binary, ['--version'], { env: { PATH: path }, encoding: 'utf8' });
  if (probe.error || probe.status !== 0) return `no usable git binary (${binary}): install git to get checkpoints`;
  return null;
}

function nulList(paths: readonly string[]): Buffer {
  return Buffer.from(paths.map((p) => `${p}\0`).join(''), 'utf8');
}

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}

function realpathOrNull(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

function existsInWorkspace(root: string, path: string): boolean {
  return lstatOrNull(join(root, path)) !== null;
}
