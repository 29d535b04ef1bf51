import { describe, expect, it } from 'vitest';
import { builtinTools } from '../../../src/core/tools/builtin/index';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { tempWorkspace } from './temp-workspace';

describe('builtinTools', () => {
  it('registers every built-in tool when an interactive approver is wired', async () => {
    const ws = await tempWorkspace();
    const registry = ToolRegistry.create({ interactiveApprover: true });
    for (const tool of builtinTools({ workspaceRoot: ws.root, interactiveApprover: true })) registry.register(tool);
    expect(registry.names()).toEqual([
      'read_file',
      'list_dir',
      'glob',
      'grep',
      'write_file',
      'edit_file',
      'bash',
      'update_plan',
      'delete_path',
    ]);
    for (const definition of registry.definitions()) expect(definition.parameters).toMatchObject({ type: 'object' });
  });

  it('leaves delete_path out headless, so the registry accepts the rest', async () => {
    const ws = await tempWorkspace();
    const registry = ToolRegistry.create({ interactiveApprover: false });
    for (const tool of builtinTools({ workspaceRoot: ws.root, interactiveApprover: false })) registry.register(tool);
    expect(registry.get('delete_path')).toBeUndefined();
    expect(registry.get('bash')).toBeDefined();
  });

  it('fixes the argument names models and scripts rely on', async () => {
    const ws = await tempWorkspace();
    const registry = ToolRegistry.create({ interactiveApprover: true });
    for (const tool of builtinTools({ workspaceRoot: ws.root, interactiveApprover: true })) registry.register(tool);
    const argumentNames = Object.fromEntries(
      registry.definitions().map((d) => [d.name, Object.keys((d.parameters as { properties: object }).properties)]),
    );
    expect(argumentNames).toEqual({
      read_file: ['path', 'offset', 'limit'],
      list_dir: ['path'],
      glob: ['pattern'],
      grep: ['pattern', 'path'],
      write_file: ['path', 'content'],
      edit_file: ['path', 'old_text', 'new_text'],
      bash: ['command', 'timeout_ms', 'outside_sandbox'],
      update_plan: ['explanation', 'plan'],
      delete_path: ['path'],
    });
  });
});
