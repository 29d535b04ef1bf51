import type { McpHub } from '../core/mcp/mcp-hub';
import type { HostCommand } from '../tui/commands/slash-commands';

/** `/mcp`: each server's state in a line; `?` lists every tool with its tier and replay class. */
export function mcpCommand(hub: McpHub): HostCommand {
  return {
    name: 'mcp',
    args: '',
    help: 'the MCP servers and what they offer (? lists each tool with its tier and replay class)',
    run: () => {
      const parts = hub.statuses().map(({ name, state }) => {
        switch (state.kind) {
          case 'ready':
            return `${name}: ${state.tools.length} tools${state.refused.length > 0 ? `, ${state.refused.length} not offered` : ''}`;
          case 'failed':
            return `${name}: failed (${state.message})`;
          case 'skipped':
            return `${name}: not started (${state.reason})`;
          case 'waiting':
            return `${name}: starts with the first prompt`;
          case 'starting':
            return `${name}: starting`;
        }
      });
      return `MCP servers: ${parts.join(' · ')} (? lists their tools)`;
    },
  };
}
