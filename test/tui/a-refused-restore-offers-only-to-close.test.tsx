/**
 * A restore prompt whose preview is refused (here a folder stands where the restore would put a
 * file, and holds a nested repository no checkpoint keeps) offers only what works: the prompt and
 * the status bar both say `n close`, neither offers `y restore`, and y does nothing. The status
 * bar offered `y restore` beside the prompt's `n close`, and y closed the prompt as n does.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { aTurnThatWrote, type FilesTurn, screenOn, showsAfterGit } from '../support/files-turn';
import { KEYS, pane, stripAnsi, type Screen } from './harness';

let screen: Screen | undefined;

afterEach(() => {
  screen?.unmount();
  screen = undefined;
});

/** A session whose turn overwrote a.txt, after which a.txt became a folder holding a repository. */
async function aFolderInTheWay(): Promise<FilesTurn> {
  const turn = await aTurnThatWrote({ 'a.txt': 'changed\n' }, { before: { 'a.txt': 'original\n' } });
  rmSync(turn.at('a.txt'));
  mkdirSync(turn.at('a.txt/.git'), { recursive: true });
  writeFileSync(turn.at('a.txt/.git/HEAD'), 'ref: refs/heads/main\n');
  return turn;
}

/** The frame's last line: the status bar with its key hints. */
const statusBar = (frame: string): string => stripAnsi(frame).trimEnd().split('\n').at(-1) ?? '';

describe('a restore prompt whose preview is refused', () => {
  it('offers only to close, in the prompt and in the status bar, and y does nothing', async () => {
    const turn = await aFolderInTheWay();
    const { store, at } = turn;
    screen = screenOn(turn);
    await screen.waitFor('Done.');
    await screen.press(KEYS.tab, KEYS.home, 'u');
    const frame = await showsAfterGit(screen, 'Move a.txt out of the way');
    const prompt = pane(frame, 'restore files?');
    expect(prompt).toContain('n close');
    expect(prompt).not.toContain('y restore');
    expect(statusBar(frame)).toContain('close');
    expect(statusBar(frame)).not.toMatch(/\by restore|cancel/);

    await screen.press('y');
    // y changed nothing: the prompt is still open with its refusal, and the folder is as it was.
    expect(screen.frame()).toContain('restore files?');
    expect(readFileSync(at('a.txt/.git/HEAD'), 'utf8')).toBe('ref: refs/heads/main\n');
    expect([...store.tree.all()].some((e) => e.type === 'restore')).toBe(false);

    await screen.press('n');
    await vi.waitFor(() => expect(screen!.frame()).not.toContain('restore files?'));
  });
});
