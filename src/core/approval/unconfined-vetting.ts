/**
 * What tole finds before asking about a call that would run unconfined (approved by a key, or
 * run where there is no sandbox): the repository's git config holds what tole cannot vouch for,
 * so the call may run only confined. The approval box and a headless denial say so before
 * anything runs, instead of a key that approves what the run then refuses. The tool still checks
 * again when it runs: the config may change between the box and the run.
 */
export interface UnconfinedVetting {
  /** What tole cannot vouch for, one line each (`key (in file)`), as the run-time refusal names them. */
  readonly unvouched: readonly string[];
  /** `confined`: a key approves the call to run only in the sandbox; `refused`: no sandbox here, it cannot run. */
  readonly outcome: 'confined' | 'refused';
}

/** The most findings the box and a denial name; the rest are counted. */
const FINDINGS_MAX = 5;

const KEY_IN_FILE = /^(\S+) \(in ([^()]+)\)$/;

/** One finding in words the user can act on: `git config key K in F may name a program…`. */
function findingWords(line: string): string {
  const keyInFile = KEY_IN_FILE.exec(line);
  if (keyInFile)
    return `git config key ${keyInFile[1]} in ${keyInFile[2]} may name a program, and tole cannot vouch for it`;
  return `git config: ${line}`;
}

/** Each finding as a line of words, at most FINDINGS_MAX of them and a count of the rest. */
export function vettingFindings(vetting: UnconfinedVetting): string[] {
  const named = vetting.unvouched.slice(0, FINDINGS_MAX).map(findingWords);
  const more = vetting.unvouched.length - named.length;
  return more > 0 ? [...named, `and ${more} more`] : named;
}

/** What approving does, given the findings. */
export function vettingOutcome(vetting: UnconfinedVetting): string {
  return vetting.outcome === 'confined'
    ? 'approved, this command runs only in the sandbox'
    : 'it is refused: there is no sandbox here, and tole runs nothing unconfined while the config holds this, so nothing runs';
}

/** What the user can do to have such a call run unconfined. */
export const VETTING_REMEDY =
  'to run it unconfined, remove what is not needed (git config --unset <key>; move an included file into .git), ' +
  'or, for a key you know names no program, list it in trustedGitKeys in your own tole config (~/.config/tole/config.json)';

/** The whole of it in one paragraph: a headless denial, what the model reads. */
export function vettingWords(vetting: UnconfinedVetting): string {
  return `${vettingFindings(vetting).join('; ')}: ${vettingOutcome(vetting)}. ${capitalised(VETTING_REMEDY)}.`;
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * Why a hook or a prompt command was not run: the user's own commands run unconfined, and the
 * repository's config holds what tole cannot vouch for. Said in the hook's notice on screen (and
 * in a prompt command's error), in the box's words.
 */
export function unconfinedCommandRefusal(unvouched: readonly string[]): string {
  const findings = vettingFindings({ unvouched, outcome: 'refused' }).join('; ');
  return `tole did not run it: it would run outside the sandbox, and ${findings}. ${capitalised(VETTING_REMEDY)}.`;
}
