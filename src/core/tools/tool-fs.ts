import * as promises from 'node:fs/promises';

/**
 * The filesystem calls the workspace walk (workspace.ts) and the checked opens and writes of the
 * file tools (checked-open.ts, file-io.ts) make: node's own `fs/promises`, always, in tole.
 *
 * It is an object rather than direct imports so that one caller may hand the same calls another
 * way: the fault simulator (test/sim) runs them on the same real files through node's synchronous
 * calls, sparing a trip through the thread pool per call (most of a schedule's idle time). The
 * checks made with them (O_NOFOLLOW, dev/ino, `/proc/self/fd`) are the same either way.
 */
export interface ToolFs {
  readonly lstat: typeof promises.lstat;
  readonly readlink: typeof promises.readlink;
  readonly realpath: typeof promises.realpath;
  readonly open: typeof promises.open;
  readonly mkdir: typeof promises.mkdir;
  readonly readdir: typeof promises.readdir;
  readonly rmdir: typeof promises.rmdir;
  readonly unlink: typeof promises.unlink;
  readonly rename: typeof promises.rename;
  readonly rm: typeof promises.rm;
}

export const NODE_TOOL_FS: ToolFs = {
  lstat: promises.lstat,
  readlink: promises.readlink,
  realpath: promises.realpath,
  open: promises.open,
  mkdir: promises.mkdir,
  readdir: promises.readdir,
  rmdir: promises.rmdir,
  unlink: promises.unlink,
  rename: promises.rename,
  rm: promises.rm,
};

let current: ToolFs = NODE_TOOL_FS;

/** The calls the file tools make now: `NODE_TOOL_FS` unless `setToolFs` set others. */
export function toolFs(): ToolFs {
  return current;
}

/** Makes the file tools of this process use `fs` from now on (the fault simulator's, in its own test process). */
export function setToolFs(fs: ToolFs): void {
  current = fs;
}
