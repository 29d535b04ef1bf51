import { spawn } from 'node:child_process';

/**
 * A change journal of the workspace, read from a running watchman (its own command-line client,
 * one run per question). watchman watches the file system and knows when it lost events (an
 * inotify queue overflow makes it crawl the tree again, and it says so in a warning; a restart or
 * a clock from another watch makes a "fresh instance"), so it can tell which paths may have
 * changed since a clock it gave, or that it cannot tell. tole only ever gets an accelerator from
 * it: every doubt is an answer of "everything may have changed", and no watchman at all is no
 * answer, a scan as before.
 */

/** What the journal says for one scan. */
export interface JournalAnswer {
  /** The clock to remember: every change after it is in the answer to a question since it. */
  readonly token: string;
  /** Paths (relative to the workspace) that may have changed since the clock asked about, or null: anything may have. */
  readonly changed: readonly string[] | null;
  /** Why the journal could not vouch (null when `changed` is a list). */
  readonly why: string | null;
}

export interface ChangeJournal {
  /**
   * Which paths may have changed since `since` (a token of an earlier answer; null when there is
   * none to ask from), or null when the journal cannot answer at all (no watchman running, an error).
   */
  ask(since: string | null, stop: AbortSignal): Promise<JournalAnswer | null>;
}

export interface WatchmanSettings {
  /** The watchman client; `watchman` on PATH unless named. */
  readonly binary?: string;
  /** Its environment (PATH, HOME, USER: where its default socket is). */
  readonly env: NodeJS.ProcessEnv;
  /** The socket of the watchman to ask (`--sockname`), else the client's default (the user's watchman). */
  readonly sockname?: string;
  /** How long one question may take before it counts as no answer. */
  readonly timeLimitMs?: number;
}

/** A list longer than this is no faster to check than every file: the answer is "everything". */
const MOST_PATHS = 50_000;
/** How long watchman may take to make sure it has seen every change up to the question (its sync cookie). */
const SYNC_MS = 2000;
const DEFAULT_TIME_LIMIT_MS = 3000;
const MAX_OUTPUT_BYTES = 64 * 1024 * 1024;

export class WatchmanJournal implements ChangeJournal {
  /** The watch that holds the workspace, once watchman said which (null: ask it again). */
  private watch: { readonly root: string; readonly relative: string | null } | null = null;
  /** No watchman client on the PATH: not looked for again in this process. */
  private missing = false;

  constructor(
    private readonly workTree: string,
    private readonly settings: WatchmanSettings,
  ) {}

  async ask(since: string | null, stop: AbortSignal): Promise<JournalAnswer | null> {
    if (this.missing) return null;
    try {
      this.watch ??= await this.watchWorkspace(stop);
      if (this.watch === null) return null;
      const { root, relative } = this.watch;
      if (since === null) {
        const clock = await this.command(['clock', root, { sync_timeout: SYNC_MS }], stop);
        return typeof clock['clock'] === 'string' ? everything(clock['clock'], 'no clock to ask from') : null;
      }
      const result = await this.command(
        [
          'query',
          root,
          {
            since,
            fields: ['name'],
            empty_on_fresh_instance: true,
            sync_timeout: SYNC_MS,
            ...(relative === null ? {} : { relative_root: relative }),
          },
        ],
        stop,
      );
      const token = result['clock'];
      const files = result['files'];
      if (typeof token !== 'string' || !Array.isArray(files)) return null;
      if (result['is_fresh_instance'] !== false) {
        // Another watchman than the one that gave the clock, or none (with no watchman running its
        // client answers a query itself, from a crawl of the tree): the watch is asked for again.
        this.watch = null;
        return everything(token, 'watchman cannot answer since that clock');
      }
      // A recrawl (it lost events: an inotify overflow) or anything else it warns of.
      if (result['warning'] !== undefined) return everything(token, `watchman warns: ${String(result['warning'])}`);
      if (files.length > MOST_PATHS) return everything(token, `${files.length} paths changed`);
      // A name watchman could not give as text (not UTF-8) cannot be named to git.
      for (const name of files)
        if (typeof name !== 'string' || name.includes('\ufffd') || name.includes('\0') || name === '')
          return everything(token, 'a changed name is not text');
      if (files.includes('.watchmanconfig')) {
        // Its configuration is checked again before the next answer is used (some versions read it anew).
        this.watch = null;
        return everything(token, "watchman's configuration changed");
      }
      return { token, changed: files as string[], why: null };
    } catch (error) {
      // Not installed, not running, slow, or an error: forget the watch and ask for it again next time.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') this.missing = true;
      this.watch = null;
      return null;
    }
  }

  /**
   * Watches the workspace (watchman's `watch-project`: a watch of a folder above it is shared) and
   * checks that watchman reports every path in it: a `.watchmanconfig` that ignores folders would
   * hide their changes, so such a watch is not used.
   */
  private async watchWorkspace(stop: AbortSignal): Promise<{ root: string; relative: string | null } | null> {
    const watched = await this.command(['watch-project', this.workTree], stop);
    const root = watched['watch'];
    if (typeof root !== 'string') return null;
    const relative = typeof watched['relative_path'] === 'string' ? watched['relative_path'] : null;
    const config = (await this.command(['get-config', root], stop))['config'];
    if (typeof config !== 'object' || config === null) return null;
    const ignores = config as Record<string, unknown>;
    if (ignores['ignore_dirs'] !== undefined || ignores['ignore_vcs'] !== undefined) return null;
    return { root, relative };
  }

  /** One watchman command through its client; watchman's error, a time-out or a stop throws. */
  private command(request: readonly unknown[], stop: AbortSignal): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      if (stop.aborted) return reject(new Error('stopped'));
      const socket = this.settings.sockname === undefined ? [] : [`--sockname=${this.settings.sockname}`];
      // --no-spawn: tole never starts a watchman; it asks one that runs.
      const child = spawn(this.settings.binary ?? 'watchman', [...socket, '--no-spawn', '--no-pretty', '-j'], {
        env: this.settings.env,
        stdio: ['pipe', 'pipe', 'ignore'],
      });
      const end = (error: Error | null, value?: Record<string, unknown>): void => {
        clearTimeout(timer);
        stop.removeEventListener('abort', onStop);
        if (error === null) resolve(value!);
        else {
          child.kill('SIGKILL');
          reject(error);
        }
      };
      const onStop = (): void => end(new Error('stopped'));
      stop.addEventListener('abort', onStop, { once: true });
      const timer = setTimeout(
        () => end(new Error('watchman did not answer in time')),
        this.settings.timeLimitMs ?? DEFAULT_TIME_LIMIT_MS,
      );
      const out: Buffer[] = [];
      let size = 0;
      child.stdout.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_OUTPUT_BYTES) end(new Error('watchman answered too much'));
        else out.push(chunk);
      });
      child.on('error', (error) => end(error));
      child.on('close', (code) => {
        if (code !== 0) return end(new Error(`watchman exited with ${code}`));
        try {
          const parsed = JSON.parse(Buffer.concat(out).toString('utf8')) as unknown;
          if (typeof parsed !== 'object' || parsed === null) return end(new Error('watchman answered no object'));
          const answer = parsed as Record<string, unknown>;
          if (answer['error'] !== undefined) return end(new Error(`watchman: ${String(answer['error'])}`));
          end(null, answer);
        } catch (error) {
          end(error as Error);
        }
      });
      child.stdin.on('error', () => {});
      child.stdin.end(JSON.stringify(request));
    });
  }
}

function everything(token: string, why: string): JournalAnswer {
  return { token, changed: null, why };
}

/** The journal a checkpoint store's settings name: `watchman` for a running watchman's (see checkpoint-store.ts), else the one given, or none. */
export function journalOf(
  journal: ChangeJournal | 'watchman' | null | undefined,
  workspaceRoot: string,
  path: string,
): ChangeJournal | null {
  if (journal !== 'watchman') return journal ?? null;
  const env: NodeJS.ProcessEnv = { PATH: path };
  for (const name of ['HOME', 'USER', 'LOGNAME', 'TMPDIR'])
    if (process.env[name] !== undefined) env[name] = process.env[name];
  // Newer watchman clients read WATCHMAN_SOCK themselves; 4.9's takes it only as --sockname.
  const sockname = process.env['WATCHMAN_SOCK'];
  return new WatchmanJournal(workspaceRoot, { env, ...(sockname ? { sockname } : {}) });
}
