/**
 * A child for git-the-walk-kept-between-calls-sees-every-change.test.ts. Usage: git-dirs-walker
 * ROOT. Walks ROOT as tole does for nested repositories and prints what it found as JSON
 * (`{ gitDirs, unvouched }`). Run as a process of its own so that, under root, the test can start
 * it without root's power to ignore folder modes.
 */
import { workspaceGitDirs } from '../../src/core/git-nested-dirs';

const [root] = process.argv.slice(2) as [string];
process.stdout.write(JSON.stringify(workspaceGitDirs(root)));
