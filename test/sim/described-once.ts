/**
 * The simulator starts a tole process per lifetime, each with a fresh tool registry, and the
 * registry derives a tool's JSON Schema from its zod schema on first use: thousands of times for
 * the same few tools over a run of the suite (4% of its time). A tool given here carries the
 * schema the registry derived for it the first time, so that later registries take it as given.
 */
import { ToolRegistry } from '../../src/core/tools/registry';
import type { Tool } from '../../src/core/tools/tool';

const derived = new Map<string, Readonly<Record<string, unknown>>>();

/** `tool` with `parameters` set to the JSON Schema the registry derives from its `inputSchema` (once per name and process). */
export function describedOnce<I>(tool: Tool<I>): Tool<I> {
  if (tool.parameters) return tool;
  let parameters = derived.get(tool.name);
  if (parameters === undefined) {
    const registry = ToolRegistry.create({ interactiveApprover: true });
    registry.register(tool);
    parameters = registry.definitions()[0]!.parameters;
    derived.set(tool.name, parameters);
  }
  return { ...tool, parameters };
}
