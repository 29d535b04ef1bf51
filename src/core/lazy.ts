import type { z } from 'zod';
import { zodNow } from './zod-on-use';

/**
 * A value made on its first use and kept. tole's zod schemas are built this way: building one
 * costs CPU, and a session's first frame needs none of them, so they are built when a file is
 * checked or a tool call parsed, not when their module loads.
 */
export function lazy<T>(make: () => T): () => T {
  let made: { readonly value: T } | undefined;
  return () => {
    made ??= { value: make() };
    return made.value;
  };
}

/** A zod schema built on its first use, from zod as `zodNow` gives it (evaluated then in the screen's script). */
export function lazySchema<T>(make: (zod: typeof z) => T): () => T {
  return lazy(() => make(zodNow()));
}
