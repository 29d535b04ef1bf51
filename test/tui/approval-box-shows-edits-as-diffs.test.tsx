import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../src/core/approval/approver';
import { deletePathTool } from '../../src/core/tools/builtin/delete-path';
import { editFileTool } from '../../src/core/tools/builtin/edit-file';
import { writeFileTool } from '../../src/core/tools/builtin/write-file';
import { pane, renderScreen, stripAnsi, type Screen } from './harness';
import { emptyStore } from './session-fixture';
import { tempDirForTest } from '../support/after-the-test';

let screen: Screen | undefined;
afterEach(() => screen?.unmount());

function workspace(): string {
  return tempDirForTest('tole-preview-');
}

async function boxFor(request: ApprovalRequest): Promise<string> {
  screen = renderScreen({ store: emptyStore() });
  screen.approvals.decide(request, new AbortController().signal);
  return pane(stripAnsi(await screen.waitFor('approve?')), 'approve?');
}

function request(tool: string, input: Record<string, unknown>, preview: ApprovalRequest['preview']): ApprovalRequest {
  return { callId: 'c1', tool, subject: String(input.path), input, risk: 'Write', reason: 'changes a file', preview };
}

describe('the approval box shows a file change as what it does to the file', () => {
  it('write_file over an existing file: a unified diff with -old/+new lines and its hunk count', async () => {
    const root = workspace();
    writeFileSync(join(root, 'a.txt'), 'one\nold\nthree\n');
    const input = { path: 'a.txt', content: 'one\nnew\nthree\n' };
    const box = await boxFor(request('write_file', input, await writeFileTool.preview!(input, root)));
    expect(box).toContain('1 hunk');
    expect(box).toContain('-old');
    expect(box).toContain('+new');
    expect(box).toContain('@@ -1,3 +1,3 @@');
    expect(box).not.toContain('content:');
  });

  it('write_file of a new file: its first lines and its size', async () => {
    const root = workspace();
    const content = `${Array.from({ length: 25 }, (_, i) => `line ${i + 1}`).join('\n')}\n`;
    const input = { path: 'fresh.txt', content };
    const box = await boxFor(request('write_file', input, await writeFileTool.preview!(input, root)));
    expect(box).toContain(`new file · 25 lines · ${Buffer.byteLength(content)} B`);
    expect(box).toContain('+line 1');
    expect(box).toContain('… 5 more lines');
  });

  it('edit_file: the diff of its change; an edit that does not apply says why', async () => {
    const root = workspace();
    writeFileSync(join(root, 'b.ts'), 'const a = 1;\nconst b = 2;\n');
    const input = { path: 'b.ts', old_text: 'const b = 2;', new_text: 'const b = 3;' };
    const box = await boxFor(request('edit_file', input, await editFileTool.preview!(input, root)));
    expect(box).toContain('1 hunk');
    expect(box).toContain('-const b = 2;');
    expect(box).toContain('+const b = 3;');
    screen?.unmount();
    const missing = { path: 'b.ts', old_text: 'nope', new_text: 'x' };
    const why = await boxFor(request('edit_file', missing, await editFileTool.preview!(missing, root)));
    expect(why).toContain('no diff: old_text was not found in b.ts');
  });

  it('delete_path of a directory: its file count and total size, links counted, never followed', async () => {
    const root = workspace();
    const outside = workspace();
    writeFileSync(join(outside, 'secret'), 'x'.repeat(5000));
    mkdirSync(join(root, 'd', 'sub'), { recursive: true });
    writeFileSync(join(root, 'd', 'one'), 'abc');
    writeFileSync(join(root, 'd', 'sub', 'two'), 'defg');
    symlinkSync(outside, join(root, 'd', 'out'));
    const input = { path: 'd' };
    const preview = await deletePathTool.preview!(input, root);
    expect(preview).toEqual({ kind: 'removes', what: 'directory', files: 3, bytes: 7 });
    const box = await boxFor({ ...request('delete_path', input, preview), risk: 'Destructive' });
    expect(box).toContain('removes a directory: 3 files, 7 B');
  });

  it('a path through a link out of the workspace, or an unreadable file, shows why instead of a diff', async () => {
    const root = workspace();
    const outside = workspace();
    writeFileSync(join(outside, 'secret.txt'), 'secret\n');
    symlinkSync(outside, join(root, 'link'));
    const input = { path: 'link/secret.txt', content: 'x\n' };
    const preview = await writeFileTool.preview!(input, root);
    expect(preview.kind).toBe('unreadable');
    expect(JSON.stringify(preview)).not.toContain('secret\\n');
    writeFileSync(join(root, 'bin'), Buffer.from([0, 1, 2, 0, 0]));
    const binary = await writeFileTool.preview!({ path: 'bin', content: 'x' }, root);
    const box = await boxFor(request('write_file', { path: 'bin', content: 'x' }, binary));
    expect(box).toContain('no diff: bin is a binary file.');
  });

  it('control characters in a diff are shown visibly, never sent to the terminal', async () => {
    const root = workspace();
    writeFileSync(join(root, 'c.txt'), 'plain\n');
    const input = { path: 'c.txt', content: 'evil\u001b[2Jcleared\rback\n' };
    screen = renderScreen({ store: emptyStore() });
    screen.approvals.decide(
      request('write_file', input, await writeFileTool.preview!(input, root)),
      new AbortController().signal,
    );
    const raw = await screen.waitFor('approve?');
    expect(raw).not.toContain('\u001b[2J');
    expect(pane(stripAnsi(raw), 'approve?')).toContain('+evil');
  });
});
