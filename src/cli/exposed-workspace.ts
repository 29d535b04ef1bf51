/**
 * A workspace that holds what runs the user's own next login or tole's next start: `/`, the
 * home directory, or any folder containing tole's home or the user's dotfiles. The sandbox
 * leaves the workspace writable, so there a call approved without a key could plant code that
 * runs later unconfined (~/.bashrc, ~/.ssh/authorized_keys, tole's own config). tole then
 * approves nothing without a key: no --yes, no allow rule, no session allowance.
 */
import { homedir } from 'node:os';
import path from 'node:path';
import { isWithin, realOrResolved as real } from '../core/tools/path-outside-workspace';
import { toleHome } from './tole-home';

/** Files and folders in the home directory that a shell, ssh or another program runs or trusts. */
const DOTFILES = [
  '.bashrc',
  '.bash_profile',
  '.profile',
  '.zshrc',
  '.zprofile',
  '.ssh',
  '.config',
  '.gitconfig',
  '.local',
];

/** Why nothing may be approved without a key in this workspace, or null when it is an ordinary folder. */
export function exposedWorkspaceReason(cwd: string, env: NodeJS.ProcessEnv): string | null {
  const root = real(cwd);
  const home = real(env['HOME'] || homedir());
  if (root === '/') return 'the workspace is / (the whole filesystem)';
  if (root === home) return `the workspace is your home directory (${home})`;
  const tole = real(toleHome(env));
  if (isWithin(tole, root)) return `the workspace holds tole's own folder (${tole})`;
  const xdg = env['XDG_CONFIG_HOME'] ? [real(env['XDG_CONFIG_HOME'])] : [];
  const dotfile = [...DOTFILES.map((name) => path.join(home, name)), ...xdg].find((file) => isWithin(file, root));
  if (dotfile) return `the workspace holds your ${dotfile}`;
  return null;
}

/** Said at start when the workspace is exposed. */
export function exposedWorkspaceNotice(reason: string): string {
  return (
    `${reason}: every call that changes anything asks for a key here (--yes, allow rules and the "a" key do not ` +
    'apply), since a command could leave code that runs at your next login or tole start; start tole in a project folder instead'
  );
}
