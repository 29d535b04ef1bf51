import { CHARACTER_ESTIMATE, encodingOf, type TokenCounter, type TokenEncoding } from '../core/session/token-counter';

/**
 * The counters of the OpenAI encodings, loaded on first need: gpt-tokenizer's tables are
 * megabytes, so each is a dynamic import (its own chunk; in the screen, from dist/later.cjs) and
 * never runs before the first frame.
 */
const loading = new Map<TokenEncoding, Promise<TokenCounter>>();

/** Special tokens such as <|endoftext|> in a prompt are counted as the text they are, not refused. */
const AS_TEXT = { disallowedSpecial: new Set<string>() };

async function importEncoding(encoding: TokenEncoding): Promise<TokenCounter> {
  const { countTokens } =
    encoding === 'o200k_base'
      ? await import('gpt-tokenizer/encoding/o200k_base')
      : await import('gpt-tokenizer/encoding/cl100k_base');
  return { method: `tokens counted with ${encoding}`, count: (text) => countTokens(text, AS_TEXT) };
}

function load(encoding: TokenEncoding): Promise<TokenCounter> {
  let pending = loading.get(encoding);
  if (pending === undefined) {
    pending = importEncoding(encoding).catch(() => {
      // A tokenizer that fails to load leaves characters / 4 in use; the next need tries again.
      loading.delete(encoding);
      return CHARACTER_ESTIMATE;
    });
    loading.set(encoding, pending);
  }
  return pending;
}

/** The counter for `model`, its tokenizer loaded first where it has one. */
export function tokenCounterFor(model: string): Promise<TokenCounter> {
  const encoding = encodingOf(model);
  return encoding === null ? Promise.resolve(CHARACTER_ESTIMATE) : load(encoding);
}
