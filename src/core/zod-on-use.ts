import { z } from 'zod';

/**
 * zod, for the schemas tole builds on first use (see `lazy`). From source this is the module
 * imported above; the full-screen session's script (scripts/zod-on-use-plugin.mjs) replaces this
 * module with one that evaluates zod at the first call, so that the first frame runs none of it.
 */
export function zodNow(): typeof z {
  return z;
}
