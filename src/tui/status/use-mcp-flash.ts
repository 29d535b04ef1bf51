import { useEffect } from 'react';
import { mcpEventText } from '../../core/mcp/mcp-notices';
import type { McpStatusSource } from '../overlays/mcp-lines';
import type { UiAction } from '../screen/ui-state';

/** A server that fails (with its stderr) or a tool it cannot offer is flashed until the next prompt. */
export function useMcpFlash(mcp: McpStatusSource | undefined, dispatch: (action: UiAction) => void): void {
  useEffect(() => {
    if (!mcp) return undefined;
    return mcp.subscribe((event) => {
      const text = mcpEventText(event);
      if (text !== null)
        dispatch({ type: 'flash', flash: { level: event.type === 'failed' ? 'error' : 'warn', text, sticky: true } });
    });
  }, [mcp, dispatch]);
}
