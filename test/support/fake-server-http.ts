/**
 * What the local stand-ins for the providers' APIs (gemini-server.ts, ollama-server.ts,
 * anthropic-server.ts) read and write alike: a request's whole body, a JSON object
 * read from it, an answer of JSON, and a scripted text given as one piece or as the pieces a
 * stream sends.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The request's whole body, as UTF-8 text. */
export async function requestText(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of req as AsyncIterable<Buffer>) parts.push(part);
  return Buffer.concat(parts).toString('utf8');
}

/** The JSON object `raw` holds; undefined for anything else (not JSON, an array, a string…). */
export function jsonObject(raw: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Answers with `body` as JSON; `headers` (a content-type of the API's own spelling among them) win. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}

/** A scripted text's pieces: none, the one text, or each piece a stream sends. */
export function pieces(value: string | readonly string[] | undefined): string[] {
  if (value === undefined) return [];
  return typeof value === 'string' ? [value] : [...value];
}
