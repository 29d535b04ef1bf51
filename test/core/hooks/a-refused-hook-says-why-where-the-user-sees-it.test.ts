/**
 * A hook or a prompt command of the user's own runs unconfined, so a repository whose git config
 * holds what tole cannot vouch for keeps it from running. The refusal says so in the hook's notice
 * (the transcript's line for the hook) and in a prompt command's error, in the approval box's
 * words: the key, its file, and what to do; not the model's advice about outside_sandbox.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HookRunner, hookNotice } from '../../../src/core/hooks/hook-runner';
import { WRITE_FILE_PRE_TOOL_USE } from '../../support/hook-payloads';
import { promptText } from '../../../src/cli/prompt-text';
import { tempRoot } from './agent-harness';

const payload = WRITE_FILE_PRE_TOOL_USE;

/** A repository whose config holds a key tole does not know, and a mark a command would leave. */
function repository(): { readonly root: string; readonly mark: string } {
  const { root } = tempRoot();
  execFileSync('git', ['init', '-q'], { cwd: root });
  appendFileSync(path.join(root, '.git', 'config'), '[gitflow "path"]\n\thooks = /elsewhere\n');
  return { root, mark: path.join(root, 'ran') };
}

const FINDING = 'git config key gitflow.path.hooks (in .git/config) may name a program, and tole cannot vouch for it';

describe('a hook refused for what the repository config holds', () => {
  it("says why in the hook's notice, and does not run", async () => {
    const { root, mark } = repository();
    const hooks = HookRunner.create({ config: { preToolUse: `touch ${mark}` }, cwd: root, env: process.env });
    const outcome = await hooks.run(payload, { failClosed: true });
    expect(outcome.verdict).toBe('block');
    const notice = hookNotice(outcome.runs[0]!);
    expect(notice.level).toBe('warn');
    expect(notice.text).toContain('could not start: tole did not run it: it would run outside the sandbox');
    expect(notice.text).toContain(FINDING);
    expect(notice.text).toContain('trustedGitKeys');
    expect(notice.text).not.toContain('outside_sandbox');
    expect(existsSync(mark)).toBe(false);
  });

  it("says why in a prompt command's error, and does not run", async () => {
    const { root, mark } = repository();
    const run = promptText([`touch ${mark}; echo text`], {
      origin: 'config c.json: field "prompt"',
      cwd: root,
      env: process.env,
    });
    await expect(run).rejects.toThrow(FINDING);
    expect(existsSync(mark)).toBe(false);
  });
});
