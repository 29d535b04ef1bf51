import { appendFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeFileOps, type FileOps } from '../../../src/core/storage/file-ops';
import {
  historyFileName,
  MAX_HISTORY_PROMPT_CHARS,
  MAX_HISTORY_PROMPTS,
  PromptHistory,
} from '../../../src/core/storage/prompt-history';
import { tempDirForTest } from '../../support/after-the-test';

const home = (): string => tempDirForTest('tole-history-');

describe('the prompt history of a workspace', () => {
  it('keeps each prompt, synced, for the next open of the same workspace only', () => {
    const dir = home();
    const synced: number[] = [];
    const ops: FileOps = { ...nodeFileOps, fdatasyncSync: (fd) => synced.push(fd) };
    const history = PromptHistory.open(dir, '/work/a', ops);
    history.append('first\nof two lines');
    history.append('second');
    expect(synced).toHaveLength(2);
    expect(PromptHistory.open(dir, '/work/a').prompts).toEqual(['first\nof two lines', 'second']);
    expect(PromptHistory.open(dir, '/work/b').prompts).toEqual([]);
  });

  it('skips a torn last line, and the next prompt starts on a line of its own', () => {
    const dir = home();
    const history = PromptHistory.open(dir, '/w');
    history.append('kept');
    appendFileSync(history.path, '"torn mid-wri');
    const again = PromptHistory.open(dir, '/w');
    expect(again.prompts).toEqual(['kept']);
    again.append('after the tear');
    expect(PromptHistory.open(dir, '/w').prompts).toEqual(['kept', 'after the tear']);
    // Lines that are not a prompt (garbage, JSON that is not a string) are not one either.
    appendFileSync(history.path, '{"text":1}\nnot json\n42\n');
    expect(PromptHistory.open(dir, '/w').prompts).toEqual(['kept', 'after the tear']);
  });

  it('keeps neither an empty prompt nor one too long to recall', () => {
    const history = PromptHistory.open(home(), '/w');
    history.append('   ');
    history.append('x'.repeat(MAX_HISTORY_PROMPT_CHARS + 1));
    expect(history.prompts).toEqual([]);
  });

  it('is bounded: the newest prompts are kept, and a file grown to twice the bound is rewritten', () => {
    const dir = home();
    const history = PromptHistory.open(dir, '/w');
    const lines = Array.from({ length: 2 * MAX_HISTORY_PROMPTS + 5 }, (_, i) => `${JSON.stringify(`p${i}`)}\n`);
    writeFileSync(history.path, lines.join(''));
    const again = PromptHistory.open(dir, '/w');
    expect(again.prompts).toHaveLength(MAX_HISTORY_PROMPTS);
    expect(again.prompts.at(-1)).toBe(`p${2 * MAX_HISTORY_PROMPTS + 4}`);
    expect(readFileSync(history.path, 'utf8').split('\n')).toHaveLength(MAX_HISTORY_PROMPTS + 1);
    expect(readdirSync(join(dir, 'history'))).toHaveLength(1);
  });

  it('a write that fails is an error, and the prompt is not taken as kept', () => {
    const ops: FileOps = {
      ...nodeFileOps,
      writeSync: () => {
        throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
      },
    };
    const history = PromptHistory.open(home(), '/w', ops);
    expect(() => history.append('lost')).toThrow(/ENOSPC/);
    expect(history.prompts).toEqual([]);
  });

  it('names its file after the workspace without node:crypto: the last folder and FNV-1a 64 of the path', () => {
    // FNV-1a 64's published test vector: "a" → af63dc4c8601ec8c.
    expect(historyFileName('a')).toBe('a-af63dc4c8601ec8c.jsonl');
    expect(historyFileName('/')).toMatch(/^root-[0-9a-f]{16}\.jsonl$/);
    const names = ['/work/a', '/work/b', '/other/a', '/work/a/', '/work/é', '/work/e\u0301'].map(historyFileName);
    expect(names[0]).toMatch(/^a-[0-9a-f]{16}\.jsonl$/);
    expect(new Set(names).size).toBe(names.length);
    // A hostile folder name stays one plain file name under history/.
    expect(historyFileName('/x/../..\n\x1b[2J`rm -rf`')).toMatch(/^[A-Za-z0-9._-]+-[0-9a-f]{16}\.jsonl$/);
  });
});
