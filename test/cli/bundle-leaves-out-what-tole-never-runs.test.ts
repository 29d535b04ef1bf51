/**
 * What the bundle holds is compiled on every start: code tole never runs stays out, and Ink's
 * per-frame width measure is tole's remembered one.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, TOLE_JS } from '../support/built-tole';

let bundle = '';
beforeAll(() => {
  ensureBuilt();
  bundle = readFileSync(TOLE_JS, 'utf8');
});

describe('the built tole.js', () => {
  it("leaves out Ink's React devtools bridge and the WebSocket library under it", () => {
    expect(bundle).not.toContain('node_modules/ws/');
    expect(bundle).not.toContain('node_modules/ink/build/devtools.js');
  });

  it("measures Ink's text with tole's remembered widths, not widest-line", () => {
    expect(bundle).not.toContain('node_modules/widest-line/');
    expect(bundle).toContain('src/tui/text-width.ts');
  });
});
