import { execFileSync } from 'node:child_process';
import { mkdir, open, symlink, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ATTACHMENT_CAP_BYTES, ATTACHMENT_CAP_NAMES } from '../../../src/core/tools/attachment';
import { readAttachment, readPromptAttachments } from '../../../src/core/tools/builtin/read-attachment';
import { MAX_ATTACHMENTS } from '../../../src/core/tools/prompt-mentions';
import { tempWorkspace } from './temp-workspace';

describe('an @path attachment', () => {
  it('is a workspace text file whole, with its size, named by its workspace path', async () => {
    const { root } = await tempWorkspace();
    await mkdir(path.join(root, 'src'));
    await writeFile(path.join(root, 'src', 'a.ts'), 'export const a = 1;\n');
    expect(await readAttachment(root, 'src/a.ts')).toEqual({
      kind: 'attached',
      attachment: { path: 'src/a.ts', kind: 'file', text: 'export const a = 1;\n', size: 20 },
    });
    expect(await readAttachment(root, './src/../src/a.ts')).toMatchObject({ attachment: { path: 'src/a.ts' } });
  });

  it('of a file over the cap is its start, cut at a whole character, and says it was cut', async () => {
    const { root } = await tempWorkspace();
    // 'é' is two bytes: the cap falls inside one.
    const text = `x${'é'.repeat(ATTACHMENT_CAP_BYTES)}`;
    await writeFile(path.join(root, 'big.txt'), text);
    const read = await readAttachment(root, 'big.txt');
    if (read.kind !== 'attached') throw new Error(`not attached: ${JSON.stringify(read)}`);
    expect(read.attachment.cut).toBe(true);
    expect(read.attachment.size).toBe(Buffer.byteLength(text));
    expect(read.attachment.text).toBe(`x${'é'.repeat((ATTACHMENT_CAP_BYTES - 2) / 2)}`);
    expect(read.attachment.text).not.toContain('\ufffd');
  });

  it('of a 2 GB file reads only the cap; one whose start is NUL bytes is binary', async () => {
    const { root } = await tempWorkspace();
    const twoGb = 2 * 1024 * 1024 * 1024;
    const handle = await open(path.join(root, 'huge.log'), 'w');
    await handle.write('line\n'.repeat(ATTACHMENT_CAP_BYTES / 4));
    await handle.truncate(twoGb);
    await handle.close();
    const read = await readAttachment(root, 'huge.log');
    if (read.kind !== 'attached') throw new Error(`not attached: ${JSON.stringify(read)}`);
    expect(read.attachment).toMatchObject({ size: twoGb, cut: true });
    expect(read.attachment.text).toBe(
      'line\n'.repeat(ATTACHMENT_CAP_BYTES / 5) + 'line'.slice(0, ATTACHMENT_CAP_BYTES % 5),
    );
    const sparse = await open(path.join(root, 'sparse.bin'), 'w');
    await sparse.truncate(twoGb);
    await sparse.close();
    expect(await readAttachment(root, 'sparse.bin')).toEqual({
      kind: 'refused',
      reason: 'sparse.bin is a binary file; only text files can be attached',
    });
  });

  it('of a directory is its names, directories marked, at most the cap', async () => {
    const { root } = await tempWorkspace();
    await mkdir(path.join(root, 'd', 'sub'), { recursive: true });
    await writeFile(path.join(root, 'd', 'b.txt'), '');
    expect(await readAttachment(root, 'd')).toEqual({
      kind: 'attached',
      attachment: { path: 'd', kind: 'directory', text: 'b.txt\nsub/', size: 2 },
    });
    await mkdir(path.join(root, 'many'));
    for (let i = 0; i <= ATTACHMENT_CAP_NAMES; i++) await writeFile(path.join(root, 'many', `f${i}`), '');
    const many = await readAttachment(root, 'many');
    expect(many).toMatchObject({ attachment: { cut: true, size: ATTACHMENT_CAP_NAMES + 1 } });
  });

  it('that names nothing, here or outside, is plain text', async () => {
    const { root } = await tempWorkspace();
    expect(await readAttachment(root, 'everyone')).toEqual({ kind: 'not-a-path' });
    expect(await readAttachment(root, '/api/users/none-such')).toEqual({ kind: 'not-a-path' });
  });

  it('is refused, saying why, when it leaves the workspace: .., an absolute path, a symlink out', async () => {
    const { root, outside } = await tempWorkspace();
    await writeFile(path.join(outside, 'secret'), 'secret\n');
    await symlink(path.join(outside, 'secret'), path.join(root, 'link'));
    await symlink(homedir(), path.join(root, 'home'));
    for (const written of [
      '../outside/secret',
      '../../../../etc/passwd',
      '/etc/passwd',
      '/etc/shadow',
      'link',
      'home/.ssh',
    ]) {
      const read = await readAttachment(root, written);
      if (written === 'home/.ssh' && read.kind === 'not-a-path') continue; // no ~/.ssh on this machine
      expect(read.kind, written).toBe('refused');
      expect(read.kind === 'refused' && read.reason, written).toMatch(/outside the workspace/);
    }
  });

  it('is refused for a FIFO (never opened, so nothing blocks) and a binary file', async () => {
    const { root } = await tempWorkspace();
    execFileSync('mkfifo', [path.join(root, 'pipe')]);
    expect(await readAttachment(root, 'pipe')).toEqual({
      kind: 'refused',
      reason: expect.stringMatching(/pipe is not a regular file/),
    });
    await writeFile(path.join(root, 'img.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 1]));
    expect(await readAttachment(root, 'img.png')).toEqual({
      kind: 'refused',
      reason: 'img.png is a binary file; only text files can be attached',
    });
  });

  it('is refused when its name has a newline or an escape in it', async () => {
    const { root } = await tempWorkspace();
    await writeFile(path.join(root, 'a\nb'), 'x');
    await writeFile(path.join(root, 'red\x1b[31m'), 'x');
    for (const written of ['a\nb', 'red\x1b[31m']) {
      const read = await readAttachment(root, written);
      expect(read).toEqual({ kind: 'refused', reason: expect.stringContaining('control characters') });
    }
  });

  it('directory listings leave out names with control characters', async () => {
    const { root } = await tempWorkspace();
    await mkdir(path.join(root, 'd'));
    await writeFile(path.join(root, 'd', 'ok.txt'), '');
    await writeFile(path.join(root, 'd', 'bad\x1b]0;x\x07'), '');
    expect(await readAttachment(root, 'd')).toMatchObject({ attachment: { text: 'ok.txt' } });
  });
});

describe("a prompt's attachments", () => {
  it('are its mentions read in order, each file once; an email or code is not one; refusals name the mention', async () => {
    const { root } = await tempWorkspace();
    await writeFile(path.join(root, 'a.md'), 'A');
    await writeFile(path.join(root, 'example.com'), 'not this');
    const read = await readPromptAttachments(
      root,
      'see @a.md, @./a.md, me@example.com, `@a.md` and @../x @/etc/passwd',
    );
    expect(read.attachments.map((a) => a.path)).toEqual(['a.md']);
    expect(read.refusals).toEqual([expect.stringMatching(/^@\/etc\/passwd: .*outside the workspace/)]);
  });

  it(`are at most ${MAX_ATTACHMENTS}; the next says so`, async () => {
    const { root } = await tempWorkspace();
    const names = Array.from({ length: MAX_ATTACHMENTS + 1 }, (_, i) => `f${i}.txt`);
    for (const name of names) await writeFile(path.join(root, name), name);
    const read = await readPromptAttachments(root, names.map((n) => `@${n}`).join(' '));
    expect(read.attachments).toHaveLength(MAX_ATTACHMENTS);
    expect(read.refusals).toEqual([`@${names.at(-1)}: at most ${MAX_ATTACHMENTS} files are attached to one prompt`]);
  });
});
