/**
 * Two workspaces, one for plain bash and one for tole's bash tool, each holding only an archive of
 * the repository the attack tests build (`build`/evil): what a command unpacks is not there for
 * tole to vet before the call. `mark` is the file the repository's programs leave when they run.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { createBashTool } from '../../src/core/tools/builtin/bash';
import { tempWorkspace } from '../core/tools/temp-workspace';
import { git } from './changed-repository';
import { withDirectPython } from './direct-python';
import { copyOfMadeOnce } from './made-once-per-file';

export async function archivedWorkspaces(build: string, mark: string, options: { zip?: boolean } = {}) {
  const plainWs = await tempWorkspace();
  const toleWs = await tempWorkspace();
  const archives = options.zip ? ['evil.tgz', 'evil.zip'] : ['evil.tgz'];
  // Each workspace a repository of its own (git init once per file, copied); the archives made
  // once and copied to the other workspace: the same bytes, one tar and one zip fewer.
  for (const ws of [plainWs, toleWs]) copyOfMadeOnce('git init', (dir) => git(dir, 'init', '-q'), ws.root);
  execFileSync('tar', ['czf', path.join(plainWs.root, 'evil.tgz'), '-C', build, 'evil']);
  if (options.zip) execFileSync('zip', ['-qr', path.join(plainWs.root, 'evil.zip'), 'evil'], { cwd: build });
  for (const name of archives) copyFileSync(path.join(plainWs.root, name), path.join(toleWs.root, name));
  rmSync(path.join(build, 'evil'), { recursive: true, force: true });
  // python3 straight to its interpreter, past a version manager's shim (direct-python.ts): the same program, a tenth of the children.
  const commandPath = withDirectPython(process.env['PATH'] ?? '/usr/bin:/bin');
  const envOf = (ws: typeof plainWs) => ({ PATH: commandPath, HOME: ws.outside });
  const bash = createBashTool({ workspaceRoot: toleWs.root, env: envOf(toleWs) });
  /** Leaves only the archives and the workspace's own .git: nothing a command made is there for tole to vet first. */
  const clean = (ws: typeof plainWs) => {
    for (const name of readdirSync(ws.root))
      if (!['.git', ...archives].includes(name)) rmSync(path.join(ws.root, name), { recursive: true, force: true });
  };
  return {
    plainWs,
    toleWs,
    toleEnv: envOf(toleWs),
    clean: () => clean(toleWs),
    /** Whether plain bash leaves the mark (removed again). */
    plainRuns(command: string): boolean {
      clean(plainWs);
      spawnSync('bash', ['-c', command], { cwd: plainWs.root, env: envOf(plainWs), stdio: 'ignore', timeout: 20_000 });
      const ran = existsSync(mark);
      rmSync(mark, { force: true });
      return ran;
    },
    /** What tole's bash tool gives for `command` (approved by a key), and whether it left the mark (removed again). */
    async toleRuns(command: string) {
      clean(toleWs);
      const out = await bash.execute({ command }, { ...toleWs.ctx, keypress: true });
      const ran = existsSync(mark);
      rmSync(mark, { force: true });
      return { ran, out };
    },
  };
}
