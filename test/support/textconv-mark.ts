/**
 * A repository's textconv that leaves a mark, and the two ways to run a command beside it: plain
 * bash (which runs the textconv, so a test shows the danger is real) and tole's bash tool with a
 * keypress (which must not).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { createBashTool } from '../../src/core/tools/builtin/bash';
import type { TempWorkspace } from '../core/tools/temp-workspace';

/** The config section of a `diff=evil` textconv that touches `mark` and prints the file. */
export const markingTextconv = (mark: string): string =>
  `[diff "evil"]\n\ttextconv = "sh -c 'touch ${mark}; cat \\"$0\\"'"\n`;

export function markRunners(ws: TempWorkspace, mark: string) {
  const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: ws.outside };
  const bash = createBashTool({ workspaceRoot: ws.root, env });
  return {
    /** Whether `command` leaves the mark under plain bash (the mark is removed again). */
    plainRuns: (command: string): boolean => {
      execFileSync('bash', ['-c', command], { cwd: ws.root, env, stdio: 'ignore' });
      const ran = existsSync(mark);
      rmSync(mark, { force: true });
      return ran;
    },
    /** Runs `command` with a keypress through the bash tool: whether the mark was left, and the result. */
    toleRuns: async (command: string) => {
      const out = await bash.execute({ command }, { ...ws.ctx, keypress: true });
      return { ran: existsSync(mark), out };
    },
  };
}
