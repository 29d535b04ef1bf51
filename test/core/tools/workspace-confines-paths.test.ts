import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isInside, resolveWorkspacePath } from '../../../src/core/tools/workspace';
import { tempWorkspace } from './temp-workspace';

describe('resolveWorkspacePath', () => {
  it('resolves a relative path inside the workspace', async () => {
    const { root } = await tempWorkspace();
    await mkdir(path.join(root, 'src'));
    const result = await resolveWorkspacePath(root, 'src/../src/app.ts');
    expect(result).toMatchObject({
      ok: true,
      path: {
        absolutePath: path.join(root, 'src/app.ts'),
        relativePath: 'src/app.ts',
        root,
        found: { kind: 'missing' },
        existingDirectory: { absolutePath: path.join(root, 'src') },
        missing: ['app.ts'],
      },
    });
  });

  it('resolves the root itself as "."', async () => {
    const { root } = await tempWorkspace();
    const result = await resolveWorkspacePath(root, '.');
    expect(result.ok && result.path.relativePath).toBe('.');
  });

  it('refuses ../../etc/passwd', async () => {
    const { root } = await tempWorkspace();
    const result = await resolveWorkspacePath(root, '../../etc/passwd');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.kind).toBe('outside-workspace');
    expect(result.error.message).toContain('outside the workspace');
    expect(result.error.message).toContain('../../etc/passwd');
  });

  it('refuses an absolute path elsewhere and accepts an absolute path inside', async () => {
    const { root, outside } = await tempWorkspace();
    expect((await resolveWorkspacePath(root, path.join(outside, 'x'))).ok).toBe(false);
    expect((await resolveWorkspacePath(root, '/etc/passwd')).ok).toBe(false);
    const inside = await resolveWorkspacePath(root, path.join(root, 'new/file.txt'));
    expect(inside.ok && inside.path.relativePath).toBe('new/file.txt');
  });

  it('refuses a sibling directory whose name starts with the root name', async () => {
    const { root } = await tempWorkspace();
    await mkdir(`${root}-evil`);
    expect((await resolveWorkspacePath(root, `../${path.basename(root)}-evil/x`)).ok).toBe(false);
    expect(isInside('/a/b', '/a/bc')).toBe(false);
    expect(isInside('/a/b', '/a/b/c')).toBe(true);
  });

  it('refuses a symlink inside the workspace that points outside, and paths below it', async () => {
    const { root, outside } = await tempWorkspace();
    await writeFile(path.join(outside, 'secret.txt'), 'secret');
    await symlink(outside, path.join(root, 'escape'));
    await symlink(path.join(outside, 'secret.txt'), path.join(root, 'secret-link'));
    for (const requested of ['escape', 'escape/secret.txt', 'escape/not-yet/created.txt', 'secret-link']) {
      const result = await resolveWorkspacePath(root, requested);
      expect(result.ok, requested).toBe(false);
    }
  });

  it('refuses a dangling symlink whose target would be created outside', async () => {
    const { root, outside } = await tempWorkspace();
    await symlink(path.join(outside, 'later.txt'), path.join(root, 'dangling'));
    const result = await resolveWorkspacePath(root, 'dangling');
    expect(result.ok).toBe(false);
  });

  it('applies ".." after following a symlink, as the operating system does', async () => {
    const { root, outside } = await tempWorkspace();
    await mkdir(path.join(outside, 'deep'));
    await symlink(path.join(outside, 'deep'), path.join(root, 'link'));
    // Lexically "link/../x" is "x" inside the root; really it is outside/x.
    const result = await resolveWorkspacePath(root, 'link/../x');
    expect(result.ok).toBe(false);
  });

  it('follows a symlink that stays inside to its real path', async () => {
    const { root } = await tempWorkspace();
    await mkdir(path.join(root, 'real'));
    await symlink('real', path.join(root, 'alias'));
    const result = await resolveWorkspacePath(root, 'alias/file.txt');
    expect(result.ok && result.path.relativePath).toBe('real/file.txt');
  });

  it('reports a symlink loop as unresolvable instead of hanging', async () => {
    const { root } = await tempWorkspace();
    await symlink('b', path.join(root, 'a'));
    await symlink('a', path.join(root, 'b'));
    const result = await resolveWorkspacePath(root, 'a/file');
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.kind).toBe('unresolvable');
  });
});
