/** Between the server's name and the tool's in the name the model sees: `github__create_issue`. */
export const MCP_NAME_SEPARATOR = '__';

/** Chat Completions accepts tool names of at most 64 characters from this set. */
const MAX_TOOL_NAME = 64;

/** A name part the model's API accepts: anything but letters, digits, `_` and `-` becomes `_`. */
export function sanitizeNamePart(name: string): string {
  const clean = name.replace(/[^A-Za-z0-9_-]/g, '_');
  return clean === '' ? '_' : clean;
}

/** `server__tool`, each part sanitized; null when it would be longer than the API accepts. */
export function mcpToolName(server: string, tool: string): string | null {
  const name = `${sanitizeNamePart(server)}${MCP_NAME_SEPARATOR}${sanitizeNamePart(tool)}`;
  return name.length <= MAX_TOOL_NAME ? name : null;
}
