import { detectSandboxSoon, type Sandbox } from '../core/tools/sandbox';

/**
 * The OS sandbox for shell commands run without a keypress, tried once; null where there is none
 * (or TOLE_NO_SANDBOX=1 turns it off). Begun without waiting: main starts it before it loads the
 * command's code, so that the try of the sandbox program runs in parallel with that load.
 */
export function findSandboxSoon(env: NodeJS.ProcessEnv): Promise<Sandbox | null> {
  if (env['TOLE_NO_SANDBOX'] === '1') return Promise.resolve(null);
  return detectSandboxSoon(process.platform, env['PATH']);
}
