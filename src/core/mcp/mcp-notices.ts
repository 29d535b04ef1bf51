import type { McpHub, McpHubEvent, McpServerStatus } from './mcp-hub';

/** Lines of a server's stderr shown with its failure: the last ones say why. */
const STDERR_LINES = 6;

/** A server's failure or its refused tools, in a line a user reads; null when there is nothing to say. */
export function mcpEventText(event: McpHubEvent): string | null {
  if (event.type === 'failed') {
    return `MCP server "${event.server}" failed: ${event.message}; its tools are not offered${stderrNote(event.stderr)}`;
  }
  if (event.refused.length === 0) return null;
  return `MCP server "${event.server}": ${event.refused.length === 1 ? 'a tool is' : `${event.refused.length} tools are`} not offered: ${event.refused.join('; ')}`;
}

function stderrNote(stderr: string): string {
  if (stderr === '') return ' (it wrote nothing to stderr)';
  const lines = stderr.split('\n').slice(-STDERR_LINES).join(' ⏎ ');
  return `. Its stderr ended with: ${lines}`;
}

/** Servers that are configured but were not started, one line each. */
export function skippedServerNotices(statuses: readonly McpServerStatus[]): string[] {
  return statuses.flatMap((status) =>
    status.state.kind === 'skipped' ? [`MCP server "${status.name}" not started: ${status.state.reason}`] : [],
  );
}

/** Tells `say` of every failure and refusal from now on; returns the unsubscribe. */
export function reportMcpEvents(hub: McpHub, say: (text: string) => void): () => void {
  return hub.subscribe((event) => {
    const text = mcpEventText(event);
    if (text !== null) say(text);
  });
}
