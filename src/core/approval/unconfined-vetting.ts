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
  /**
   * `confined`: a key approves the call to run only in the sandbox; `refused`: no sandbox here, it
   * cannot run; `warned`: no sandbox here, and every finding says only that the command starts git
   * where tole's git does not reach (isReachDrop): a person's key at the box, shown every finding,
   * runs it unconfined. Never offered where no one is asked (--yes, an allow rule, headless, a hook).
   */
  readonly outcome: 'confined' | 'refused' | 'warned';
}

/** How every line the guard check (git-guard-drops.ts) gives starts: a config key or a file never does. */
export const DROP_START = 'the command ';

/** Whether `line`, from RepositoryGitConfig.unvouched, is one the guard check gave. */
export const isGuardDrop = (line: string): boolean => line.startsWith(DROP_START);

/**
 * How a guard drop starts when it says only that the command starts git where tole's git does not
 * reach (a login shell, ssh, a container, a tmux server, sudo): the command itself does not undo
 * tole's guard, so a person may accept it with a key where there is no sandbox (outcome `warned`).
 * Every other drop (the guard's variables named or unset, PATH changed, git by its path, tole's
 * git looked up and removed) stays refused.
 */
export const REACH_START = `${DROP_START}goes where tole's git does not reach: it `;

/** Whether `line` is a guard drop a person may accept with a key (see REACH_START). */
export const isReachDrop = (line: string): boolean => line.startsWith(REACH_START);

/** Whether a key may run a call with these findings unconfined, having seen them all: each is a reach drop. */
export const keyMayAccept = (unvouched: readonly string[]): boolean =>
  unvouched.length > 0 && unvouched.every(isReachDrop);

/** The most findings the box and a denial name; the rest are counted. */
const FINDINGS_MAX = 5;

const KEY_IN_FILE = /^\S+ \(in [^()]+\)$/;

/**
 * One finding in words the user can act on: `git config key K (in F) may name a program…`, or
 * what the command does. The key and file stay as the refusal at the run names them.
 */
function findingWords(line: string): string {
  if (isGuardDrop(line)) return line;
  if (KEY_IN_FILE.test(line)) return `git config key ${line} may name a program, and tole cannot vouch for it`;
  return `git config: ${line}`;
}

/**
 * Each finding as a line of words, at most FINDINGS_MAX of them and a count of the rest; a warning
 * a key may accept is shown whole (the key accepts every line of it).
 */
export function vettingFindings(vetting: UnconfinedVetting): string[] {
  if (vetting.outcome === 'warned') return vetting.unvouched.map(findingWords);
  const named = vetting.unvouched.slice(0, FINDINGS_MAX).map(findingWords);
  const more = vetting.unvouched.length - named.length;
  return more > 0 ? [...named, `and ${more} more`] : named;
}

/** What was found: the repository's config (which holds for every command there), what the command itself does, or both. */
function foundIn(unvouched: readonly string[]): { readonly config: boolean; readonly command: boolean } {
  return { config: unvouched.some((line) => !isGuardDrop(line)), command: unvouched.some(isGuardDrop) };
}

/** What approving does, given the findings. */
export function vettingOutcome(vetting: UnconfinedVetting): string {
  if (vetting.outcome === 'confined') return 'approved, this command runs only in the sandbox';
  if (vetting.outcome === 'warned')
    return "approved with y, it runs unconfined: git there runs without tole's git, so a repository's hooks and drivers can run";
  if (keyMayAccept(vetting.unvouched))
    return 'it is refused: there is no sandbox here, and only a key at the approval box, shown this, runs such a command unconfined, so nothing runs';
  const found = foundIn(vetting.unvouched);
  const what = found.config ? 'nothing unconfined while the config holds this' : 'no command that does this unconfined';
  return `it is refused: there is no sandbox here, and tole runs ${what}, so nothing runs`;
}

/** What the user can do to have such a call run unconfined. */
export const VETTING_REMEDY =
  'to run it unconfined, remove what is not needed (git config --unset <key>; move an included file into .git), ' +
  'or, for a key you know names no program, list it in trustedGitKeys in your own tole config (~/.config/tole/config.json)';

/** The same for a command that itself keeps git from tole's guard (git-guard-drops.ts). */
const COMMAND_REMEDY = 'to run it unconfined, write the command without that';

/** What the user can do, for what was found. */
export function vettingRemedy(vetting: UnconfinedVetting): string {
  if (vetting.outcome === 'warned') return 'approve it only if you trust what it reaches';
  const found = foundIn(vetting.unvouched);
  if (found.config && found.command) return `${VETTING_REMEDY}; and ${COMMAND_REMEDY}`;
  return found.config ? VETTING_REMEDY : COMMAND_REMEDY;
}

/**
 * The whole of it in one paragraph: what the model reads when tole refused the call before
 * anyone was asked, when the box it was shown in could only close, and when the run found it
 * (bash, where there is no sandbox): the same words whichever way the call came. It names only
 * what can work: with no sandbox, no key and no `outside_sandbox` runs it.
 */
export function vettingWords(vetting: UnconfinedVetting): string {
  const found = foundIn(vetting.unvouched);
  const head = `${vettingFindings(vetting).join('; ')}: ${vettingOutcome(vetting)}.`;
  if (vetting.outcome !== 'refused') return `${head} ${capitalised(vettingRemedy(vetting))}.`;
  const advice = [
    found.command ? "Write the command without that: git then runs with tole's guard." : '',
    keyMayAccept(vetting.unvouched)
      ? "As it is, only the user's own key at tole's approval box runs it unconfined, having seen this (never --yes, an allow rule, a headless run or a hook); ask the user if it is needed."
      : '',
    found.config
      ? 'Calling bash again will not help, with outside_sandbox or without: there is no sandbox here, and every ' +
        'bash command is refused while the repository holds this. Tell the user what was found: they can remove ' +
        'what is not needed (git config --unset <key>; move an included file into .git), or list a key they know ' +
        'names no program in trustedGitKeys in their own tole config (~/.config/tole/config.json).'
      : '',
  ];
  return [head, ...advice.filter((part) => part !== '')].join(' ');
}

/**
 * What the model reads when a bash call approved by a key is refused at its run where a sandbox
 * exists: the preflight found nothing, and the repository's config (or the command, edited since)
 * holds what tole cannot vouch for now. Called again, a key approves it to run in the sandbox.
 */
export function refusedAtRunWords(unvouched: readonly string[]): string {
  const findings = vettingFindings({ unvouched, outcome: 'confined' }).join('; ');
  const found = foundIn(unvouched);
  const again = found.config
    ? 'Call it again: the approval then runs it only in the sandbox, where what git runs is confined (outside_sandbox cannot change that while the repository holds this).'
    : 'Write the command without that, or call it again as it is: the approval then runs it only in the sandbox, where what git runs is confined.';
  return `tole did not run this command outside its sandbox: ${findings}. ${again}`;
}

/**
 * What a confined run that failed says of the sandbox where the call cannot run unconfined (the
 * repository's config holds what tole cannot vouch for): asking for `outside_sandbox` would run
 * it in the sandbox again, so the model is told that, and what the user can do.
 */
export function confinedOnlyWords(unvouched: readonly string[]): string {
  const findings = vettingFindings({ unvouched, outcome: 'confined' }).join('; ');
  const found = foundIn(unvouched);
  const then = found.config
    ? 'If it needs more than the sandbox allows, tell the user what was found: they can remove what is not needed ' +
      '(git config --unset <key>; move an included file into .git), or list a key they know names no program in ' +
      'trustedGitKeys in their own tole config (~/.config/tole/config.json).'
    : 'Written without that, it can be asked to run outside the sandbox.';
  return `It cannot run outside the sandbox as it is: ${findings}; a call with "outside_sandbox": true runs in the sandbox again. ${then}`;
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
  const vetting = { unvouched, outcome: 'refused' } as const;
  const findings = vettingFindings(vetting).join('; ');
  return `tole did not run it: it would run outside the sandbox, and ${findings}. ${capitalised(vettingRemedy(vetting))}.`;
}
