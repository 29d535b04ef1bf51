/**
 * The files prompt in the tree pane, with a real Agent that took checkpoints under a temp tole
 * home: `u` shows what restoring the files to an entry would change and restores only on y;
 * Enter on an earlier entry offers "conversation only" (c) or "conversation and files" (f).
 */
import { existsSync, readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HEAD_KEY, NS, type LaneHead } from '../../src/core/registers/namespaces';
import type { SessionStore } from '../../src/core/storage/session-store';
import { aTurnThatWrote, type FilesTurn, screenOn, showsAfterGit } from '../support/files-turn';
import { KEYS, pane, type Screen } from './harness';

let screen: Screen | undefined;
let turn: FilesTurn;
let store: SessionStore;
let promptId: string;

beforeEach(async () => {
  turn = await aTurnThatWrote({ 'a.txt': 'changed\n', 'b.txt': 'new\n' }, { before: { 'a.txt': 'original\n' } });
  ({ store, promptId } = turn);
});

afterEach(() => {
  screen?.unmount();
  screen = undefined;
});

const file = (name: string): string | null => (existsSync(turn.at(name)) ? readFileSync(turn.at(name), 'utf8') : null);

const shows = (text: string): Promise<string> => showsAfterGit(screen!, text);

describe('u in the tree restores the files after a preview and a y', () => {
  it('shows the counts and paths, changes nothing on n, restores on y', async () => {
    screen = screenOn(turn);
    await screen.waitFor('Done.');
    await screen.press(KEYS.tab, KEYS.home, 'u');
    const prompt = pane(await shows('0 to create · 1 to overwrite · 1 to remove'), 'restore files?');
    expect(prompt).toContain(`restore the files to how they were at ${promptId}`);
    expect(prompt).toContain('~ a.txt');
    expect(prompt).toContain('- b.txt');
    expect(prompt).toContain('y restore');

    await screen.press('n');
    await vi.waitFor(() => expect(screen!.frame()).not.toContain('restore files?'));
    expect(file('a.txt')).toBe('changed\n');
    expect(file('b.txt')).toBe('new\n');

    await screen.press('u');
    await shows('1 to remove');
    await screen.press('y');
    await shows(`files restored to ${promptId}`);
    expect(file('a.txt')).toBe('original\n');
    expect(file('b.txt')).toBeNull();
    // The restore is in the tree: an intent with its own checkpoint, then its settlement.
    expect(
      [...store.tree.all()].filter((e) => e.type === 'restore' || e.type === 'restore_result').map((e) => e.type),
    ).toEqual(['restore', 'restore_result']);
  });
});

describe('Enter on an earlier entry offers the files in the same prompt', () => {
  it('c checks out the conversation only, f the conversation and the files', async () => {
    screen = screenOn(turn);
    await screen.waitFor('Done.');
    await screen.press(KEYS.tab, KEYS.home, KEYS.enter);
    const prompt = pane(await shows('1 to overwrite'), 'check out: files too?');
    expect(prompt).toContain('c conversation only');
    expect(prompt).toContain('f conversation and files');

    await screen.press('c');
    await screen.waitFor('next prompt');
    expect(store.registers.get<LaneHead>(NS.laneHead, HEAD_KEY)?.entryId).toBe(promptId);
    expect(file('a.txt')).toBe('changed\n');

    // Back to the newest entry (its files are the ones on disk: no prompt), then f on the first.
    await screen.press('g', KEYS.enter);
    await vi.waitFor(() => expect(store.registers.get<LaneHead>(NS.laneHead, HEAD_KEY)?.entryId).not.toBe(promptId));
    await screen.press(KEYS.home, KEYS.enter);
    await shows('check out: files too?');
    await shows('1 to remove');
    await screen.press('f');
    await shows(`files restored to ${promptId}`);
    expect(file('a.txt')).toBe('original\n');
    expect(file('b.txt')).toBeNull();
    // The restore starts a new branch from the checked-out entry.
    const head = store.registers.get<LaneHead>(NS.laneHead, HEAD_KEY)!;
    const path = store.tree.pathTo(head.entryId).map((e) => e.type);
    expect(path).toEqual(['user', 'restore', 'restore_result']);
  });
});
