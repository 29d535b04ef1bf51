/** Local servers tole looks for on first run, on their usual loopback ports. */
export const LOCAL_SERVERS: readonly { readonly name: string; readonly preset: string; readonly port: number }[] = [
  { name: 'Ollama', preset: 'ollama', port: 11434 },
  { name: 'llama.cpp', preset: 'llamacpp', port: 8080 },
  { name: 'LM Studio', preset: 'lmstudio', port: 1234 },
];

interface FoundServer {
  readonly name: string;
  readonly preset: string;
  readonly baseUrl: string;
  readonly models: readonly string[];
}

/** How long one port may take to list its models before the panel says nothing is there. */
export const PROBE_TIMEOUT_MS = 400;

async function probe(
  server: (typeof LOCAL_SERVERS)[number],
  host: string,
  timeoutMs: number,
): Promise<FoundServer | null> {
  const baseUrl = `http://${host}:${server.port}/v1`;
  try {
    const response = await fetch(`${baseUrl}/models`, { signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) return null;
    const body = (await response.json()) as { data?: { id?: unknown }[] };
    const models = (body.data ?? []).map((m) => m.id).filter((id): id is string => typeof id === 'string');
    return { name: server.name, preset: server.preset, baseUrl, models };
  } catch {
    return null;
  }
}

/** Asks each usual port for its model list, all at once, each with a short timeout. */
export async function probeLocalServers(
  host = '127.0.0.1',
  servers = LOCAL_SERVERS,
  timeoutMs = PROBE_TIMEOUT_MS,
): Promise<FoundServer[]> {
  const found = await Promise.all(servers.map((s) => probe(s, host, timeoutMs)));
  return found.filter((f): f is FoundServer => f !== null);
}
