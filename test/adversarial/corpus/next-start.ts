/**
 * The user's next start of tole in the workspace, after an attack planted files tole reads at
 * start (a profile under .tole/agents, a tole.config.json): headless, against a local server, as
 * the user runs it. What the plant named must not run.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startChatServer } from '../../support/chat-server';
import { runBuiltTole, TOLE_JS } from '../../support/built-tole';
import type { World } from './world';

/** `tole trust` of the workspace as it is now, run by the user before the attack. */
export function trustNow(world: World): void {
  execFileSync(process.execPath, [TOLE_JS, 'trust', world.ws], { env: world.env, stdio: 'ignore' });
}

/** Starts tole again (with `args`) and says what ran that the plant named, or null. */
export async function nextStartRunsNothing(
  world: World,
  id: string,
  args: readonly string[] = [],
): Promise<string | null> {
  const server = await startChatServer({ defaultReply: { text: 'hello' } });
  try {
    await runBuiltTole(['-p', 'hello', '--base-url', server.url, '--model', 'm', ...args], {
      cwd: world.ws,
      env: world.env,
    });
  } finally {
    await server.close();
  }
  return existsSync(join(world.out, id)) ? 'the next start of tole ran what the attack planted' : null;
}
