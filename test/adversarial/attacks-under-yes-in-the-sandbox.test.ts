/**
 * The attack corpus under `--yes` with the sandbox (bubblewrap): code may run, confined, yet no
 * attack reaches outside the workspace, the user's sockets, `.git` or what runs at the next start
 * (corpus/suite.ts says what is checked). Skipped, saying why, where no sandbox works.
 */
import { describe } from 'vitest';
import { detectSandbox } from '../../src/core/tools/sandbox';
import { corpusSuite } from './corpus/suite';

if (detectSandbox(process.platform, process.env.PATH)) corpusSuite('sandbox');
else describe.skip('the attack corpus in the sandbox: no working sandbox (bubblewrap) on this machine', () => {});
