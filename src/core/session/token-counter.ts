/** How the prompt's size is counted: a model's own tokenizer, or characters / 4 where none is known. */
export interface TokenCounter {
  /** What `/context` says of the count, e.g. "tokens counted with o200k_base". */
  readonly method: string;
  readonly count: (text: string) => number;
}

/** The tokenizers tole counts with, each named as its encoding. */
export type TokenEncoding = 'o200k_base' | 'cl100k_base';

/** The fallback: characters / 4, for a model whose tokenizer is not known or not loaded yet. */
export const CHARACTER_ESTIMATE: TokenCounter = {
  method: 'estimated as characters ÷ 4',
  count: (text) => text.length / 4,
};

/**
 * The encoding an OpenAI model family counts with, or null (every other model). A provider
 * prefix such as `openai/` is read past; gpt-4o, gpt-4.1, gpt-5 and the o-series use o200k_base,
 * gpt-4 and gpt-3.5 cl100k_base.
 */
export function encodingOf(model: string): TokenEncoding | null {
  const name = model.toLowerCase().slice(model.lastIndexOf('/') + 1);
  if (/^(gpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|chatgpt-4o|o1|o3|o4)(\b|-|$)/.test(name)) return 'o200k_base';
  if (/^(gpt-4|gpt-3\.5)(\b|-|$)/.test(name)) return 'cl100k_base';
  return null;
}
