/**
 * Anthropic's model list (`GET /v1/models`, https://docs.anthropic.com/en/api/models-list): pages
 * of `{data: [{id, type: "model", display_name, created_at}], has_more, first_id, last_id}`, the
 * next asked with `after_id=<last_id>`. The windows are the documented ones (anthropic-windows.ts).
 */
import { getModelList } from '../get-model-list';
import type { ModelInfo } from '../provider';
import type { Fetch } from '../sse-response';
import { claudeWindow } from './anthropic-windows';

/** Pages asked for at most (1,000 models each). */
const MAX_PAGES = 10;

export async function listAnthropicModels(
  baseURL: string,
  headers: Readonly<Record<string, string>>,
  options: { readonly fetch?: Fetch | undefined; readonly signal?: AbortSignal | undefined },
): Promise<ModelInfo[]> {
  const base = baseURL.replace(/\/+$/, '').replace(/\/v1$/, '');
  const models: ModelInfo[] = [];
  let after = '';
  for (let page = 0; page < MAX_PAGES; page++) {
    const query = `?limit=1000${after ? `&after_id=${encodeURIComponent(after)}` : ''}`;
    const listed = (await getModelList(`${base}/v1/models${query}`, headers, options)) as {
      data?: { id?: unknown }[];
      has_more?: unknown;
      last_id?: unknown;
    } | null;
    for (const entry of listed?.data ?? []) {
      if (typeof entry?.id !== 'string') continue;
      const window = claudeWindow(entry.id);
      models.push(window ? { id: entry.id, contextWindowTokens: window.tokens } : { id: entry.id });
    }
    if (listed?.has_more !== true || typeof listed.last_id !== 'string') break;
    after = listed.last_id;
  }
  return models;
}
