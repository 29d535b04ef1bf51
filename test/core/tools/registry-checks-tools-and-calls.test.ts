import { describe, expect, it } from 'vitest';
import { deletePathTool } from '../../../src/core/tools/builtin/delete-path';
import { editFileTool } from '../../../src/core/tools/builtin/edit-file';
import { readFileTool } from '../../../src/core/tools/builtin/read-file';
import { ToolRegistrationError, ToolRegistry } from '../../../src/core/tools/registry';

function registryWith(interactiveApprover: boolean): ToolRegistry {
  const registry = ToolRegistry.create({ interactiveApprover });
  registry.register(readFileTool);
  registry.register(editFileTool);
  return registry;
}

describe('ToolRegistry.register', () => {
  it('refuses a Destructive tool when no interactive approver is wired', () => {
    const registry = registryWith(false);
    expect(() => registry.register(deletePathTool)).toThrow(ToolRegistrationError);
    expect(() => registry.register(deletePathTool)).toThrow(/delete_path.*Destructive.*no interactive approver/);
    expect(registry.get('delete_path')).toBeUndefined();
  });

  it('accepts a Destructive tool when an interactive approver is wired', () => {
    const registry = registryWith(true);
    registry.register(deletePathTool);
    expect(registry.get('delete_path')).toBe(deletePathTool);
  });

  it('refuses a second tool with the same name', () => {
    const registry = registryWith(true);
    let caught: unknown;
    try {
      registry.register(readFileTool);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ToolRegistrationError);
    expect((caught as ToolRegistrationError).kind).toBe('duplicate-name');
  });
});

describe('ToolRegistry.definitions', () => {
  it('gives each tool a JSON Schema made from its zod schema', () => {
    const definitions = registryWith(false).definitions();
    expect(definitions.map((d) => d.name)).toEqual(['read_file', 'edit_file']);
    const read = definitions[0];
    expect(read.description).toBe(readFileTool.description);
    expect(read.parameters).toMatchObject({
      type: 'object',
      properties: { path: { type: 'string' }, offset: { type: 'integer' }, limit: { type: 'integer' } },
      required: ['path'],
      additionalProperties: false,
    });
    expect(read.parameters).not.toHaveProperty('$schema');
    expect(definitions[1].parameters).toMatchObject({ required: ['path', 'old_text', 'new_text'] });
  });
});

describe('ToolRegistry.parseCall', () => {
  const registry = registryWith(false);

  it('returns the tool and the checked input for a good call', () => {
    const parsed = registry.parseCall('read_file', '{"path": "src/a.ts", "offset": 3}');
    expect(parsed).toEqual({ ok: true, tool: readFileTool, input: { path: 'src/a.ts', offset: 3 } });
  });

  it('names the unknown tool and lists the available ones', () => {
    const parsed = registry.parseCall('read_files', '{}');
    expect(parsed).toEqual({ ok: false, message: 'Unknown tool "read_files". Available tools: read_file, edit_file.' });
  });

  it('says the arguments are not valid JSON and shows the expected shape', () => {
    const parsed = registry.parseCall('read_file', '{"path": "a.ts"');
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.message).toContain('arguments for read_file are not valid JSON');
    expect(parsed.message).toContain('{"path": string, "offset"?: integer, "limit"?: integer}');
  });

  it('names a missing required argument', () => {
    const parsed = registry.parseCall('edit_file', '{"path": "a.ts", "old_text": "x"}');
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.message).toContain('"new_text": missing (required, string)');
    expect(parsed.message).toContain('Expected: {"path": string, "old_text": string, "new_text": string}');
  });

  it('names an argument of the wrong type and what was expected', () => {
    const parsed = registry.parseCall('read_file', '{"path": "a.ts", "offset": "12"}');
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.message).toMatch(/"offset": .*expected number, received string/);
  });

  it('names an unknown argument, so a misspelt name is caught', () => {
    const parsed = registry.parseCall('read_file', '{"file_path": "a.ts"}');
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.message).toContain('unknown argument "file_path"');
    expect(parsed.message).toContain('"path": missing');
  });

  it('refuses arguments that are not an object', () => {
    const parsed = registry.parseCall('read_file', '["a.ts"]');
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.message).toContain('arguments: Invalid input: expected object, received array');
  });

  it('treats null as a left-out optional argument', () => {
    const parsed = registry.parseCall('read_file', '{"path": "a.ts", "offset": null}');
    expect(parsed.ok && parsed.input).toEqual({ path: 'a.ts' });
  });

  it('never throws, whatever the model sends', () => {
    for (const raw of ['', 'null', '42', '"x"', '{', '{"path": {"nested": true}}', '\u0000']) {
      expect(() => registry.parseCall('read_file', raw)).not.toThrow();
    }
  });
});
