/**
 * The process tier's global setup: builds dist/tole.js when the sources are newer (once, before
 * any file starts, instead of the first files racing for the build lock) and bundles the child
 * scripts (test-children.ts).
 */
import { ensureBuilt } from './built-tole';
import { buildTestChildren } from './test-children';

export default function setup(): void {
  ensureBuilt();
  buildTestChildren();
}
