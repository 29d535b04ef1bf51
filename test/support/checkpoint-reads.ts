/**
 * What the checkpoint tests of a turn share: a scripted reply that writes one file, and a file's
 * bytes as a checkpoint holds them (read with git from tole's checkpoint directory).
 */
import { spawnSync } from 'node:child_process';
import type { ScriptedReply } from './chat-server';

/** A model reply calling write_file once. */
export function writeFileReply(id: string, path: string, content: string): ScriptedReply {
  return { toolCalls: [{ id, name: 'write_file', arguments: JSON.stringify({ path, content }) }] };
}

/** `path` as checkpoint `id` in the checkpoint directory `gitDir` holds it ('' when it does not). */
export function fileInCheckpoint(gitDir: string, id: string, path: string): string {
  return spawnSync('git', ['show', `${id}:${path}`], {
    encoding: 'utf8',
    env: { PATH: process.env['PATH'], GIT_DIR: gitDir, GIT_CONFIG_GLOBAL: '/dev/null' },
  }).stdout;
}

/** git in a checkpoint directory, as the user or another tole would run it there: its stdout, or an error with its stderr. */
export function inCheckpoints(checkpoints: { readonly directory: string }, ...args: string[]): string {
  const run = spawnSync('git', args, {
    encoding: 'utf8',
    env: { PATH: process.env['PATH'], GIT_DIR: checkpoints.directory, GIT_CONFIG_GLOBAL: '/dev/null' },
  });
  if (run.status !== 0) throw new Error(`git ${args.join(' ')}: ${run.stderr}`);
  return run.stdout;
}
