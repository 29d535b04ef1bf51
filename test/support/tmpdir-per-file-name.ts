/** How the process tiers name each file's own temp directory (tmpdir-per-file.ts) in the machine's. */
export const FILE_TMPDIR_PREFIX = 'tole-test-file-';
