/** What tole's entry point is given: its arguments, environment, folder and streams (the real process's, or a test's). */
export interface MainIo {
  readonly argv: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  /** Read only when a command asks for it (`tole sync --password-stdin`). */
  readonly stdin?: NodeJS.ReadableStream;
  /** Renames the process as `ps` shows it (the real tole: process.title), to take a password out of its command line. */
  readonly retitle?: (title: string) => void;
}
