import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { INK_CHECKED_VERSION } from '../../src/tui/frame/ink-coupling';
import { REPO_ROOT } from '../support/repo-root';

describe('the installed Ink', () => {
  it('is the version the output swap and the frame writer were checked against', () => {
    const installed = (
      JSON.parse(readFileSync(join(REPO_ROOT, 'node_modules', 'ink', 'package.json'), 'utf8')) as { version: string }
    ).version;
    const declared = (
      JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }
    ).dependencies['ink'];
    const advice =
      `Ink ${installed} is installed but tole's renderer was checked against Ink ${INK_CHECKED_VERSION}: re-check ` +
      "scripts/ink-output-plugin.mjs and src/tui/frame/ink-output.ts against Ink's build/output.js, src/tui/text/text-width.ts " +
      'against widest-line, src/tui/frame/ink-sanitize-ansi.ts against sanitize-ansi, the devtools stub, ' +
      'scripts/ink-resize-plugin.mjs against ink.js (its `resized` listener and the throttle of `throttledLog`), ' +
      'scripts/ink-no-top-level-await-plugin.mjs against reconciler.js (its two top-level awaits), ' +
      'and the erase sequences src/tui/frame/frame-writer.ts reads, then update ' +
      'INK_CHECKED_VERSION in src/tui/frame/ink-coupling.ts';
    expect(installed, advice).toBe(INK_CHECKED_VERSION);
    expect(declared, 'package.json must pin Ink exactly (no range) to the checked version').toBe(INK_CHECKED_VERSION);
  });
});
