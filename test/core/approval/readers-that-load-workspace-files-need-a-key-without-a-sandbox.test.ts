/**
 * With no sandbox a ReadOnly line runs unconfined with no key. `npm view github:a/b` was ReadOnly,
 * and npm runs the `git` program a project's .npmrc names (shown with npm 11 and `git=./x.sh`:
 * x.sh ran). A global `jest --version` runs the project's node_modules/jest (jest's bin calls
 * import-local). The class: a ReadOnly verdict holds with no sandbox only when every program of
 * the line is one tole knows to load no file of the workspace as code or settings (INERT_READERS).
 */
import { describe, expect, it } from 'vitest';
import { classifyCommand } from '../../../src/core/approval/command-risk';
import { INERT_READERS } from '../../../src/core/approval/command-rules';
import { createBashTool } from '../../../src/core/tools/builtin/bash';
import type { Sandbox, SandboxPolicy } from '../../../src/core/tools/sandbox';

const UNVETTED = [
  'npm view github:a/b',
  'npm ls',
  'npm outdated',
  'npm --version',
  'npm config get registry',
  'jest --version',
  'node -v',
  'python3 --version',
  'tsc -v',
  'eslint -v',
  'make -v',
  'cat a | npm view x',
  'ls && npm ls',
  'env npm ls',
  'xargs npm view < f',
  'bash --version',
];
const INERT = [
  'ls -la',
  'cat a',
  'git log',
  'git status',
  'rg foo',
  'find . -name x',
  'sed -n 1p f',
  'jq . a.json',
  'env',
  'sed --version',
  'x=1',
  'cd src && ls',
];

const tool = (sandboxed: boolean) =>
  createBashTool({
    workspaceRoot: '/nonexistent-workspace',
    env: { PATH: '/usr/bin:/bin' },
    sandbox: sandboxed ? { sandbox: {} as Sandbox, policy: {} as SandboxPolicy } : null,
  });

describe('a reader that may load the workspace', () => {
  it.each(UNVETTED)('%s: ReadOnly to the classifier, naming the program; an opaque Write with no sandbox', (line) => {
    const verdict = classifyCommand(line);
    if (verdict.risk !== 'ReadOnly') return expect(verdict.risk).not.toBe('ReadOnly');
    expect(verdict.unvettedReader).toBeDefined();
    expect(tool(false).assess({ command: line })).toMatchObject({ risk: 'Write', opaque: true });
    expect(tool(true).assess({ command: line }).risk).toBe('ReadOnly');
  });

  it.each(INERT)('%s: stays ReadOnly with no sandbox', (line) => {
    expect(classifyCommand(line).unvettedReader).toBeUndefined();
    expect(tool(false).assess({ command: line }).risk).toBe('ReadOnly');
  });

  it('npm and the version-query programs are not vouched for', () => {
    for (const name of ['npm', 'npx', 'node', 'python3', 'jest', 'eslint', 'make', 'tsc'])
      expect(INERT_READERS.has(name)).toBe(false);
  });
});
