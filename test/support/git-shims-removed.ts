/**
 * After each test file: the folders tole's bash tool wrote its git into (src/core/tools/git-shim.ts)
 * removed. tole removes them when its process exits; a worker thread of the test runner ends
 * without that exit, and left one folder in the temp directory per file that ran bash unconfined.
 */
import { afterAll } from 'vitest';
import { removeGitShims } from '../../src/core/tools/git-shim';

afterAll(removeGitShims);
