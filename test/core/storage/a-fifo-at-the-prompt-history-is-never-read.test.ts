import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type FileOps, nodeFileOps } from '../../../src/core/storage/file-ops';
import { historyFileName, PromptHistory } from '../../../src/core/storage/prompt-history';
import { tempDir } from '../../support/storage-fixtures';

const dir = tempDir();
afterAll(() => dir.remove());

/** The real file operations, with every whole-file read or open of something not a regular file noted (it would wait for a writer). */
function notingOps(): { ops: FileOps; blocking: string[] } {
  const blocking: string[] = [];
  const refuse = (path: string): never => {
    blocking.push(path);
    throw Object.assign(new Error(`${path} would wait for a writer`), { code: 'EAGAIN' });
  };
  const ops: FileOps = {
    ...nodeFileOps,
    readFileSync: (path) => (nodeFileOps.kindOf(path) === 'fifo' ? refuse(path) : nodeFileOps.readFileSync(path)),
    openSync: (path, flags, mode) =>
      nodeFileOps.kindOf(path) === 'fifo' ? refuse(path) : nodeFileOps.openSync(path, flags, mode),
  };
  return { ops, blocking };
}

describe.skipIf(process.platform === 'win32')('a FIFO where the prompt history should be', () => {
  it('is never read nor opened (either waits forever): the history is refused, saying why, and a file there works again', () => {
    const home = join(dir.path, 'home');
    const workspace = '/some/workspace';
    mkdirSync(join(home, 'history'), { recursive: true });
    const path = join(home, 'history', historyFileName(workspace));
    execFileSync('mkfifo', [path]);
    const { ops, blocking } = notingOps();
    expect(() => PromptHistory.open(home, workspace, ops)).toThrowError(/is a fifo, not a file/);
    expect(blocking).toEqual([]);

    const other = PromptHistory.open(home, '/another/workspace', ops);
    other.append('kept');
    expect(PromptHistory.open(home, '/another/workspace', ops).prompts).toEqual(['kept']);
    expect(blocking).toEqual([]);
  });
});
