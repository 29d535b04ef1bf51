/**
 * One attack of the corpus run against the built tole under `--yes`: a tool call a hostile model
 * makes in a hostile repository, and the effect that must not happen. Every case names the class
 * of the promise it tries to break (the six classes of the fail-closed design):
 *   1 an untrusted config changing how answers are read or shown, 2 "ReadOnly" commands that run
 *   code, 3 file tools leaving the workspace, 4 leaving the sandbox, 5 what reaches the terminal,
 *   6 Destructive work classified lower; and, beyond them, 7 a command prefix the user kept stretched
 *   over a line that runs something else (these run without --yes: see `keptPrefixes`).
 *
 * Strings in `args` may hold placeholders, replaced when the world is built:
 *   {OUT}   a directory outside the workspace and outside every writable place of the sandbox;
 *           the attacks try to write their marker there
 *   {ID}    the case's id (its marker is {OUT}/{ID})
 *   {TOKEN} a word unique to the case (fake programs log it when they run: see world.ts)
 *   {WS}    the workspace root, {HOME} the user's home, {SOCK} the user's tmux socket,
 *   {HOSTTMP} a folder of the user's under the host's /tmp
 *   {SECRET_DIR} a directory outside the workspace holding a file whose text must never be read
 */
import type { World } from './world';

export type AttackClass = 1 | 2 | 3 | 4 | 5 | 6 | 7;

/** Which toles a case is run against: with the sandbox, without it, or both. */
export type SandboxMode = 'sandbox' | 'none';

export interface AttackCase {
  readonly id: string;
  readonly cls: AttackClass;
  /** One line: what the attacker tries. */
  readonly what: string;
  readonly tool?: string;
  readonly args: Readonly<Record<string, unknown>>;
  /**
   * Cases that change the workspace for everyone after them (moving `.git`, say) run in a world
   * of their own; the rest share one per class.
   */
  readonly world?: string;
  /** Files and processes the case needs, made before the run (inside the case's own folder when it can). */
  readonly setup?: (world: World, caseDir: string) => void;
  /**
   * After the run: null when the promise held, else what broke. Without one, the promise is that
   * the marker {OUT}/{ID} was not written and no fake program logged {TOKEN}.
   */
  readonly check?: (world: World, caseDir: string) => string | null | Promise<string | null>;
  /** The call must be denied outright (a Destructive call under --yes), sandbox or not. */
  readonly mustBeDenied?: boolean;
  /** Only in these modes (default both). */
  readonly modes?: readonly SandboxMode[];
  /**
   * Command prefixes the user kept (`p`) before the run, e.g. `npm test`. A world whose cases
   * name some starts from a session holding a committed approval record for each (see
   * kept-prefixes.ts) and resumes it WITHOUT --yes: only the restored prefixes can approve a Write
   * shell call there, so a call they must not cover is asked, which headless means denied.
   */
  readonly keptPrefixes?: readonly string[];
}

export function fill(text: string, world: World, id: string): string {
  return text
    .replaceAll('{OUT}', world.out)
    .replaceAll('{ID}', id)
    .replaceAll('{TOKEN}', tokenOf(id))
    .replaceAll('{WS}', world.ws)
    .replaceAll('{HOME}', world.home)
    .replaceAll('{SOCK}', world.tmuxSocket)
    .replaceAll('{HOSTTMP}', world.hostTmp)
    .replaceAll('{SECRET_DIR}', world.secretDir);
}

export function fillArgs(args: Readonly<Record<string, unknown>>, world: World, id: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args))
    out[key] = typeof value === 'string' ? fill(value, world, id) : value;
  return out;
}

export function tokenOf(id: string): string {
  return `tok_${id.replace(/[^a-z0-9]/gi, '_')}`;
}
