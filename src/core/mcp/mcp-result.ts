import { formatBytes } from '../tools/cap-output';
import type { ToolOutput } from '../tools/tool';
import type { CallToolResult } from './mcp-connection';

type Block = CallToolResult['content'][number];

/**
 * What the model reads of a tool's result: its text, its structured content as JSON, and a line
 * for each image, audio clip or resource (never their bytes). The caller caps the whole like any
 * tool output. `isError` results are failures the model reads.
 */
export function resultOutput(result: CallToolResult): ToolOutput {
  const parts = (result.content ?? []).map(describeBlock);
  const text = parts.join('\n');
  if (result.structuredContent !== undefined && !sameJson(text, result.structuredContent)) {
    parts.push(`structured content:\n${JSON.stringify(result.structuredContent, null, 2)}`);
  }
  const content = parts.join('\n');
  return { ok: result.isError !== true, content: content === '' ? '(the tool returned nothing)' : content };
}

function describeBlock(block: Block): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
    case 'audio':
      return `[${block.type}: ${block.mimeType}, ${formatBytes(base64Bytes(block.data))}; not shown]`;
    case 'resource_link':
      return `[resource link: ${block.uri}${block.name ? ` (${block.name})` : ''}]`;
    case 'resource': {
      const resource = block.resource;
      const mime = resource.mimeType ? `, ${resource.mimeType}` : '';
      if ('text' in resource && typeof resource.text === 'string')
        return `[resource ${resource.uri}${mime}]\n${resource.text}`;
      const blob = 'blob' in resource && typeof resource.blob === 'string' ? resource.blob : '';
      return `[resource ${resource.uri}${mime}: ${formatBytes(base64Bytes(blob))} of binary data; not shown]`;
    }
    default:
      return `[${(block as { type: string }).type} content; not shown]`;
  }
}

function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

/** Servers often send their structured result as text too: it is shown once. */
function sameJson(text: string, value: unknown): boolean {
  try {
    return JSON.stringify(JSON.parse(text)) === JSON.stringify(value);
  } catch {
    return false;
  }
}
