/** Every case of the attack corpus, by class. */
import type { AttackCase } from './attack-case';
import { DESTRUCTIVE_CASES } from './cases-destructive';
import { GIT_AND_PROC_CASES } from './cases-git-and-proc';
import { PATH_CASES } from './cases-paths';
import { PREFIX_CASES } from './cases-prefixes';
import { RUNS_CODE_CASES } from './cases-runs-code';
import { SANDBOX_CASES } from './cases-sandbox';

export const CORPUS: readonly AttackCase[] = [
  ...RUNS_CODE_CASES,
  ...GIT_AND_PROC_CASES,
  ...PATH_CASES,
  ...SANDBOX_CASES,
  ...DESTRUCTIVE_CASES,
  ...PREFIX_CASES,
];
