/**
 * The setup for each file of every tier but the screen's: TMPDIR points into a directory of the file's own while
 * it runs, and that directory goes, with whatever is in it, when the file ends. The tests' temp
 * directories are made there (tmpdir() reads TMPDIR), and so are those of the processes they start:
 * a child inherits TMPDIR, and the terminal driver passes it on (test/e2e/terminal-driver.ts). A
 * tole the test kills with SIGKILL never runs its exit handler, and its session's temp directory
 * (src/cli/session-temp-dir.ts) was left in /tmp: about 1,100 tole-session-* folders on this machine.
 * The directory is made world-writable and sticky like /tmp, for the servers that run as another
 * user (test/support/postgres-server.ts runs PostgreSQL as nobody when the tests run as root).
 * ext4 is told to spread the directories made in it over the disk's block groups (spread-inodes.ts
 * says why). In the unit and isolated tiers it is made in the tier's own directory, which carries
 * that mark (run-tmpdir.ts): a chattr for each file from the process holding their threads costs
 * more than it saves. The process tiers make it in tmpdir() and mark it: their workspaces stay as
 * deep as before, where tests count the ../ that reach / (attachments-are-read-through-the-
 * guarded-resolver).
 */
import { chmodSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, inject } from 'vitest';
import { spreadInodesUnder } from './spread-inodes';
import { FILE_TMPDIR_PREFIX } from './tmpdir-per-file-name';

const outer = process.env['TMPDIR'];
const tierDir = inject('fileTmpdirParent');
const dir = realpathSync(mkdtempSync(join(tierDir ?? tmpdir(), FILE_TMPDIR_PREFIX)));
chmodSync(dir, 0o1777);
if (tierDir === undefined) spreadInodesUnder(dir);
process.env['TMPDIR'] = dir;

afterAll(() => {
  if (outer === undefined) delete process.env['TMPDIR'];
  else process.env['TMPDIR'] = outer;
  // A child killed as the file ended may still be writing in it: Node tries again on ENOTEMPTY.
  rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
});
