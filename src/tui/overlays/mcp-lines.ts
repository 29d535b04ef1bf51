import type { McpHubEvent, McpServerStatus } from '../../core/mcp/mcp-hub';
import { seg, wrapLine, type Line } from '../style/styled-line';

/** What the screen reads of the session's MCP servers (the hub). */
export interface McpStatusSource {
  statuses(): McpServerStatus[];
  subscribe(listener: (event: McpHubEvent) => void): () => void;
}

const NAME_COLUMN = 28;

/**
 * The MCP section of the help overlay: each server's state, and each tool it offers with its
 * tier and replay class (what approval and a crash resume do with it). Empty without servers.
 */
export function mcpHelpLines(statuses: readonly McpServerStatus[], width: number): Line[] {
  if (statuses.length === 0) return [];
  const lines: Line[] = [[seg('MCP tools (tier · replay on resume)', 'heading')]];
  for (const { name, state } of statuses) {
    switch (state.kind) {
      case 'ready':
        lines.push([
          seg(`  ${name}`, 'accentBold'),
          seg(`  ${state.tools.length} ${state.tools.length === 1 ? 'tool' : 'tools'}`, 'muted'),
        ]);
        for (const tool of state.tools) {
          lines.push([
            seg(`    ${tool.name}`.padEnd(NAME_COLUMN), 'toolName'),
            seg(tool.risk, tool.risk),
            seg(` · ${tool.replay}`, 'muted'),
          ]);
        }
        for (const refused of state.refused)
          lines.push(...wrapLine([seg(`    not offered: ${refused}`, 'warn')], width, [seg('      ')]));
        break;
      case 'failed':
        lines.push(
          ...wrapLine([seg(`  ${name}`, 'accentBold'), seg(`  failed: ${state.message}`, 'error')], width, [
            seg('    '),
          ]),
        );
        if (state.stderr)
          lines.push(...wrapLine([seg(`    stderr: ${lastLine(state.stderr)}`, 'muted')], width, [seg('      ')]));
        break;
      case 'skipped':
        lines.push(
          ...wrapLine([seg(`  ${name}`, 'accentBold'), seg(`  not started: ${state.reason}`, 'warn')], width, [
            seg('    '),
          ]),
        );
        break;
      case 'waiting':
      case 'starting':
        lines.push([
          seg(`  ${name}`, 'accentBold'),
          seg(state.kind === 'waiting' ? '  starts with the first prompt' : '  starting…', 'muted'),
        ]);
        break;
    }
  }
  lines.push([]);
  return lines;
}

function lastLine(text: string): string {
  return (
    text
      .split('\n')
      .filter((line) => line.trim() !== '')
      .at(-1) ?? ''
  );
}
