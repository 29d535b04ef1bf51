/**
 * What the screen tests of a files restore share: a real Agent (test/tui/agent-fixture.ts) that
 * takes checkpoints under a temp tole home, after one turn that wrote files with write_file (under
 * --yes); the screen on its session; and the wait for the restore's git work, which is slower than
 * a frame.
 */
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { expect, vi } from 'vitest';
import type { StartTimer } from '../../src/core/checkpoints/git-stop';
import type { SessionStore } from '../../src/core/storage/session-store';
import { realAgent, type AgentFixture } from '../tui/agent-fixture';
import { renderScreen, type Screen } from '../tui/harness';
import { emptyStore } from '../tui/session-fixture';
import { tempDirForTest } from './after-the-test';

export interface FilesTurn {
  readonly store: SessionStore;
  readonly fixture: AgentFixture;
  /** The id of the turn's prompt: the entry whose files a restore brings back. */
  readonly promptId: string;
  /** A path in the workspace. */
  at(name: string): string;
}

/**
 * A session whose one turn wrote `files` (path → content, in one reply, then 'Done.'), each
 * first holding what `before` gives it, if anything. `git`: the git the checkpoints run (a test's
 * wrapper) and the timer of their time limit.
 */
export async function aTurnThatWrote(
  files: Readonly<Record<string, string>>,
  options: {
    readonly before?: Readonly<Record<string, string>>;
    readonly git?: { readonly binary: string; readonly timer?: StartTimer };
  } = {},
): Promise<FilesTurn> {
  const store = emptyStore();
  const toolCalls = Object.entries(files).map(([path, content], i) => ({
    id: `w_${i}`,
    name: 'write_file',
    arguments: JSON.stringify({ path, content }),
  }));
  const fixture = realAgent(store, [{ chunks: ['Writing.'], toolCalls }, { chunks: ['Done.'] }], {
    yes: true,
    checkpointHome: tempDirForTest('tole-tui-home-'),
    ...(options.git ? { git: options.git } : {}),
  });
  const at = (name: string): string => join(fixture.workspace, name);
  for (const [path, content] of Object.entries(options.before ?? {})) writeFileSync(at(path), content);
  await fixture.agent.runTurn('write the files', new AbortController().signal, () => {});
  const promptId = [...store.tree.all()].find((e) => e.type === 'user')!.id;
  return { store, fixture, promptId, at };
}

/** The screen on the turn's session, its agent, approvals and policy; without colour. */
export function screenOn(turn: FilesTurn): Screen {
  const { store, fixture } = turn;
  return renderScreen({
    store,
    agent: fixture.agent,
    approvals: fixture.approvals,
    policy: fixture.policy,
    noColor: true,
  });
}

/** Waits until the screen shows `text`, up to 30 s: checkpoints and restores run git. */
export async function showsAfterGit(screen: Screen, text: string): Promise<string> {
  await vi.waitFor(() => expect(screen.frame()).toContain(text), { timeout: 30_000, interval: 20 });
  return screen.frame();
}
