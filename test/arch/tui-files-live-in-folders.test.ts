import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const tuiDir = join(import.meta.dirname, '..', '..', 'src', 'tui');

/** The only files directly in src/tui: the screen's root component and the ways the host starts a screen. */
const ENTRY_POINTS = [
  'App.tsx',
  'run-alone.tsx',
  'run-picker.tsx',
  'run-provisional.tsx',
  'run-trust-prompt.tsx',
  'run-tui.tsx',
];

/** src/tui's folders and what each holds; a file goes into the one its idea belongs to. */
const FOLDERS: Record<string, string> = {
  approval: 'the approval box: its lines, keys, fields and the queue of calls waiting for a key',
  commands: 'slash commands and the session commands the screen runs, with how their refusals read',
  dialogs: 'prompts that take the keyboard before or beside the panes: files, trust, first run',
  frame: "Ink's renderer as tole ships it: frame pacing and writing, the patched output stage, the terminal's modes",
  input: 'keys: reading, splitting and mapping them to actions, the mouse wheel, focus reports',
  overlays: 'the overlays drawn over the panes: help, lists, plan, cost',
  panes: 'the pane layout and what every pane of lines shares: frame, window, content',
  picker: 'the session picker and its rows',
  prompt: 'the prompt line: editing, layout, pastes, the external editor and completion',
  screen: "the screen's state: the session it shows, the live turn, the UI reducer and the hooks that feed them",
  status: 'the status bar and the flash line, and what they say of errors, sync and signals',
  style: 'roles, themes and painting styled lines',
  text: 'text as the terminal holds it: widths, segmentation, markdown, numbers as people read them',
  transcript: 'the transcript pane and the lines of its entries',
  tree: 'the conversation tree pane: rows, search, unfolded sub-agents',
  usage: 'the usage pane, live cost and the context window',
};

describe('src/tui keeps its files in folders', () => {
  const entries = readdirSync(tuiDir);
  const files = entries.filter((name) => !statSync(join(tuiDir, name)).isDirectory());
  const folders = entries.filter((name) => statSync(join(tuiDir, name)).isDirectory());

  it('holds only its entry points directly', () => {
    expect(files.sort()).toEqual([...ENTRY_POINTS].sort());
  });

  it('has only the declared folders (a new one is added to FOLDERS with what it holds)', () => {
    expect(folders.sort()).toEqual(Object.keys(FOLDERS).sort());
  });
});
