import { describe, expect, it } from 'vitest';
import { parseArgs } from '../../src/cli/args';
import { HELP_TEXT } from '../../src/cli/help';
import { unconfinedNotice } from '../../src/cli/wiring';

describe('--yes with no sandbox', () => {
  it('says at start that shell commands still ask, and what runs one without a key', () => {
    const notice = unconfinedNotice(parseArgs(['-p', 'x', '--yes']), {}, null) ?? '';
    expect(notice).toMatch(/no sandbox on this machine, so shell commands still ask/);
    expect(notice).toMatch(/allow rule naming the exact command/);
  });

  it('says nothing of it when a sandbox confines the calls', () => {
    expect(unconfinedNotice(parseArgs(['-p', 'x', '--yes']), {}, {} as never)).toBeNull();
  });

  it('--help says it beside --yes', () => {
    expect(HELP_TEXT).toMatch(/--yes[^\n]*\n[^\n]*shell commands still ask/);
  });
});
