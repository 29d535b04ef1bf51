/**
 * Ollama's local models (`GET /api/tags`, "List Local Models" in Ollama's docs/api.md):
 * `{models: [{name: "llama3.1:latest", model: "llama3.1:latest", size, details, ...}]}`. Windows
 * are not in the list (`POST /api/show` says them, asked per model when it is used).
 */
import { getModelList } from '../get-model-list';
import type { ModelInfo } from '../provider';
import type { Fetch } from '../sse-response';

export async function listOllamaModels(
  root: string,
  headers: Readonly<Record<string, string>>,
  options: { readonly fetch?: Fetch | undefined; readonly signal?: AbortSignal | undefined },
): Promise<ModelInfo[]> {
  const listed = (await getModelList(`${root}/api/tags`, headers, options)) as {
    models?: { name?: unknown; model?: unknown }[];
  } | null;
  const models: ModelInfo[] = [];
  for (const entry of listed?.models ?? []) {
    const id = typeof entry?.name === 'string' ? entry.name : entry?.model;
    if (typeof id === 'string' && id !== '') models.push({ id });
  }
  return models;
}
