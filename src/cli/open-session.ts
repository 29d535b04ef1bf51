import { mkdirSync, realpathSync, statSync } from 'node:fs';
import { StorageError } from '../core/storage/errors';
import { SessionStore } from '../core/storage/session-store';
import type { Random } from '../core/clock';
import type { CliArgs } from './args';
import { UsageError } from './args';
import { indexKeyIn } from './index-key';
import { newestSessionIn, resolveSessionRef } from './session-files';
import { toleHome } from './tole-home';
import { clock } from './wiring';

export interface OpenedSession {
  readonly store: SessionStore;
  /** Things the user must be told (a repaired torn tail). */
  readonly notices: readonly string[];
  readonly created: boolean;
}

/** A new session in `dir`, or the one `-c` / `--resume` names. */
export function openSession(args: CliArgs, dir: string, cwd: string, random: Random): OpenedSession {
  if (args.storage !== undefined && (args.continueLast || args.resume !== undefined)) {
    throw new UsageError(
      '--storage sets the format of a new session; to change an existing one, use tole convert PATH --to jsonl|sqlite',
    );
  }
  const path = sessionPathFromArgs(args, dir, cwd);
  if (path === null) {
    if (args.readOnly) throw new UsageError('--read-only needs a session: add --resume ID|PATH or -c');
    mkdirSync(dir, { recursive: true });
    return {
      store: SessionStore.create(dir, { clock, random, cwd, backend: args.storage ?? 'jsonl' }),
      notices: [],
      created: true,
    };
  }
  const indexKey = indexKeyIn(toleHome(process.env));
  const store = SessionStore.open(path, { clock, random, readOnly: args.readOnly, indexKey, lanesChecked: true });
  return { store, notices: openNotices(store), created: false };
}

export function sessionPathFromArgs(args: CliArgs, dir: string, cwd: string): string | null {
  if (args.continueLast) {
    const newest = newestSessionIn(dir, cwd);
    if (!newest) {
      throw new StorageError(
        'not-found',
        `no session to continue in ${cwd} (sessions live in ${dir}): start one with tole or tole -p PROMPT, or list every directory's with tole sessions --all`,
      );
    }
    return newest;
  }
  if (args.resume === undefined || args.resume === '') return null;
  const path = resolveSessionRef(args.resume, dir, cwd);
  if (!path)
    throw new StorageError(
      'not-found',
      `no session "${args.resume}" (looked for a file and for an id in ${dir}); list them with tole sessions`,
    );
  return path;
}

export function openNotices(store: SessionStore): string[] {
  const aside = store.report.indexSetAside;
  const notices = aside
    ? [
        `the saved index ${aside.path} was not used: ${aside.reason}; the session was replayed from its file${aside.movedTo ? `, and the index moved to ${aside.movedTo}` : ''}`,
      ]
    : [];
  const torn = store.report.tornTail;
  if (!torn) return notices;
  const what = `${torn.bytes} byte${torn.bytes === 1 ? '' : 's'} at line ${torn.line} (${torn.reason})`;
  return [
    ...notices,
    torn.repaired
      ? `repaired a torn tail: ${what} was an incomplete write from a crash and was cut away (its bytes are kept in ${torn.savedTo ?? 'no file'}); every committed line is intact`
      : `this file ends in a torn tail: ${what}; it would be cut away on a writable open`,
  ];
}

/**
 * Where an opened session's tools work: the workspace it was made in (its header's cwd), so that
 * an unsettled call resumes where it was made and the paths in the transcript keep their meaning.
 * Only when that directory is gone do the tools work in `cwd`. Either way a move is told.
 */
export function sessionWorkspace(
  store: SessionStore,
  cwd: string,
): { readonly cwd: string; readonly notices: readonly string[] } {
  const own = store.header.cwd;
  if (!own || realOrSelf(own) === realOrSelf(cwd)) return { cwd, notices: [] };
  if (!isDirectory(own))
    return { cwd, notices: [`this session was made in ${own}, which is gone: its tools work in ${cwd} now`] };
  return {
    cwd: own,
    notices: [`this session works in ${own}, where it was made (not in ${cwd}): its tools run there`],
  };
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
