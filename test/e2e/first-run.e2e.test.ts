/**
 * The built tole, started with nothing configured (an empty HOME and TOLE_HOME, no key): it opens
 * full screen on the first-run panel instead of failing, and Ctrl-C leaves the terminal as it was.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, TOLE_JS } from '../support/built-tole';
import { TerminalDriver } from './terminal-driver';
import { tempDirForTest } from '../support/after-the-test';

let driver: TerminalDriver | undefined;

beforeAll(() => ensureBuilt(), 120_000);
afterAll(() => driver?.kill('SIGKILL'));

describe('tole with no provider, in a terminal', () => {
  it('shows the first-run panel (what it looked for, local servers, how to set a key), then quits cleanly', async () => {
    const home = tempDirForTest('tole-e2e-empty-home-');
    const workspace = tempDirForTest('tole-e2e-first-');
    driver = new TerminalDriver({
      args: [TOLE_JS],
      cwd: workspace,
      env: { HOME: home, TOLE_HOME: join(home, '.tole') },
      columns: 120,
      rows: 40,
    });

    const screen = await driver.waitFor(
      (s) => s.includes('no model provider yet') && /Ollama\s+127\.0\.0\.1:11434/.test(s),
    );
    expect(driver.onAlternateScreen).toBe(true);
    expect(screen).toMatch(/✗ OPENAI_API_KEY\s+not set/);
    expect(screen).toMatch(/✗ --base-url, OPENAI_BASE_URL\s+not given/);
    expect(screen).toMatch(/✗ ~\/\.config\/tole\/config\.json\s+not there/);
    expect(screen).toMatch(/✗ \.\/tole\.config\.json\s+not there/);
    expect(screen).toContain('Local servers on 127.0.0.1');
    expect(screen).toMatch(/llama\.cpp\s+127\.0\.0\.1:8080/);
    expect(screen).toMatch(/LM Studio\s+127\.0\.0\.1:1234/);
    expect(screen).toContain('export OPENAI_API_KEY=sk-...');
    expect(screen).toContain('✗ no provider');
    // Nothing fits past the screen's edge.
    for (const line of screen.split('\n')) expect([...line].length).toBeLessThanOrEqual(120);

    driver.type('\x03');
    const exit = await driver.exit;
    expect(exit.exitCode).toBe(0);
    expect(driver.onAlternateScreen).toBe(false);
    const tail = driver.raw.slice(driver.raw.lastIndexOf('\x1b[?1049l') - 60);
    expect(tail).toContain('\x1b[?25h');
    expect(tail).toContain('\x1b[?2004l');
  }, 60_000);
});
