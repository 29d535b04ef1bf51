/**
 * The file tools name the workspace paths they change, as checkpoints read them (a known-path
 * checkpoint reads only those): the real path a write goes to through a symlinked folder, the
 * link itself for a deletion of a link, and nothing they can vouch for when the path leaves the
 * workspace. A tool that does not declare its effect (bash) is one tole cannot name.
 */
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createBashTool } from '../../../src/core/tools/builtin/bash';
import { deletePathTool } from '../../../src/core/tools/builtin/delete-path';
import { editFileTool } from '../../../src/core/tools/builtin/edit-file';
import { readFileTool } from '../../../src/core/tools/builtin/read-file';
import { writeFileTool } from '../../../src/core/tools/builtin/write-file';
import type { AnyTool } from '../../../src/core/tools/tool';
import { tempWorkspace } from './temp-workspace';

async function named(tool: AnyTool, input: unknown, root: string): Promise<readonly string[] | null | string> {
  const effect = tool.workspaceEffect;
  if (effect === undefined) return 'unknown';
  if (effect.kind === 'none') return 'none';
  return effect.paths(input, root);
}

describe('the file tools name the paths they change', () => {
  it('through a symlinked folder, at a link, and outside the workspace', async () => {
    const ws = await tempWorkspace();
    await mkdir(path.join(ws.root, 'src'));
    await writeFile(path.join(ws.root, 'src', 'main.ts'), 'x\n');
    await symlink('src', path.join(ws.root, 'linked'));
    await symlink('src/main.ts', path.join(ws.root, 'main-link.ts'));

    expect(await named(writeFileTool, { path: 'linked/new/a.ts', content: '' }, ws.root)).toEqual(['src/new/a.ts']);
    expect(await named(editFileTool, { path: 'linked/main.ts', old_text: 'x', new_text: 'y' }, ws.root)).toEqual([
      'src/main.ts',
    ]);
    expect(await named(deletePathTool, { path: 'main-link.ts' }, ws.root)).toEqual(['main-link.ts']);
    expect(await named(writeFileTool, { path: '../outside/x', content: '' }, ws.root)).toBeNull();
    expect(await named(deletePathTool, { path: '.' }, ws.root)).toBeNull();
    expect(await named(readFileTool, { path: 'src/main.ts' }, ws.root)).toBe('none');
    expect(await named(createBashTool({ workspaceRoot: ws.root }), { command: 'true' }, ws.root)).toBe('unknown');
  });
});
