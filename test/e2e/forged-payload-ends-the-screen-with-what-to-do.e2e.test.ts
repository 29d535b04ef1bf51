/**
 * The built tole in a real pseudo-terminal, opening a large session whose saved index vouches for
 * a line that is not JSON (only a forger can make one: checksums and index chained again). The
 * screen reads that payload while drawing: tole leaves the full screen, says which file, line and
 * entry and what to do, exits 1 and changes nothing. Doing what it says (the index moved aside)
 * gets the open's own refusal of that line, with the way to recover what came before it.
 */
import { readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ASIDE_MIN_BYTES } from '../../src/core/storage/aside-bounds';
import { nodeFileOps } from '../../src/core/storage/file-ops';
import { LINE_PREFIX_BYTES } from '../../src/core/storage/line-codec';
import type { DraftRecord } from '../../src/core/storage/records';
import { indexPathOf, readIndex, writeIndex } from '../../src/core/storage/session-index';
import { ensureBuilt, TOLE_JS as TOLE } from '../support/built-tole';
import { TEST_INDEX_KEY, createStore, linesOf, openStore, rechained } from '../support/storage-fixtures';
import { TerminalDriver } from './terminal-driver';
import { tempDirForTest } from '../support/after-the-test';

let driver: TerminalDriver | undefined;

beforeAll(() => ensureBuilt(), 120_000);
afterEach(() => driver?.kill('SIGKILL'));

/** A chain of ~1 KB entries past the size that is replayed beside a worker, then one short entry. */
function largeSession(dir: string): string {
  const store = createStore(dir);
  let parent: string | null = null;
  const text = 'filler '.repeat(150);
  while (statSync(store.path).size < ASIDE_MIN_BYTES + 256 * 1024) {
    const drafts: DraftRecord[] = [];
    for (let i = 0; i < 100; i++) {
      const id = store.newEntryId();
      const payload = i % 2 ? { text, toolCalls: [], model: 'm', finishReason: 'stop' } : { text };
      drafts.push({
        kind: 'entry',
        timestamp: store.now(),
        id,
        parentId: parent,
        type: i % 2 ? 'assistant' : 'user',
        payload,
      });
      parent = id;
    }
    drafts.push({ kind: 'register', op: 'set', namespace: 'lane.leaf', key: 'main', value: parent });
    store.commit(drafts);
  }
  const id = store.newEntryId();
  store.commit([
    {
      kind: 'entry',
      timestamp: store.now(),
      id,
      parentId: parent,
      type: 'user',
      payload: { text: 'the last question' },
    },
    { kind: 'register', op: 'set', namespace: 'lane.leaf', key: 'main', value: id },
  ]);
  store.close();
  // A writable open of a file this large saves the index beside it.
  openStore(store.path).close();
  return store.path;
}

function tole(args: readonly string[], cwd: string, home: string): TerminalDriver {
  driver = new TerminalDriver({
    args: [TOLE, ...args, '--base-url', 'http://127.0.0.1:9/v1', '--model', 'gpt-4.1'],
    cwd,
    env: { TOLE_HOME: home, OPENAI_API_KEY: 'sk-test' },
  });
  return driver;
}

describe('a payload a forged index vouches for, in a terminal', () => {
  it('ends the screen with the file, line and entry and what to do; the file is untouched', async () => {
    const dir = tempDirForTest('tole-e2e-forged-');
    const home = tempDirForTest('tole-e2e-forged-home-');
    // The forger here holds the user's key (the index's MAC is this key's): only the payload check stands.
    writeFileSync(join(home, 'index.key'), TEST_INDEX_KEY, { mode: 0o600 });
    const path = largeSession(dir);
    const index = readIndex(nodeFileOps, path, statSync(path).size, TEST_INDEX_KEY);
    expect(index?.bytes).toBe(statSync(path).size);

    // A control character in the text of the last entry of the last commit of fillers (the tree
    // shows it), every checksum after it chained again, and the index forged to the new last
    // checksum. Not the file's last line: one that is not JSON there is a torn tail.
    const lines = linesOf(readFileSync(path));
    const lineNo = lines.length - 1;
    const old = lines[lineNo - 1]!.subarray(LINE_PREFIX_BYTES, -1).toString('latin1');
    const at = old.lastIndexOf('filler filler');
    const body = `${old.slice(0, at)}filler\u0001${old.slice(at + 7)}`;
    const forged = rechained(lines, lineNo, Buffer.from(body, 'latin1'));
    writeFileSync(path, forged);
    const lastLine = forged.subarray(forged.lastIndexOf(0x0a, forged.length - 2) + 1);
    writeIndex(
      nodeFileOps,
      path,
      { ...index!, lastCrc: Number.parseInt(lastLine.toString('latin1', 6, 14), 16) },
      TEST_INDEX_KEY,
    );

    const screen = tole(['--resume', path, '--read-only'], dir, home);
    const { exitCode } = await screen.exit;
    expect(exitCode).toBe(1);
    expect(screen.onAlternateScreen).toBe(false);
    const said = (await screen.screen()).replace(/\n/g, '');
    expect(said).toContain(`tole: ${path} line ${lineNo}: the payload of entry`);
    expect(said).toContain(`move ${path}.index aside and open the session again`);
    // Its own remedy only: no general advice beside it, no stack, not an "internal error".
    expect(said).not.toContain('recovered.jsonl');
    expect(said).not.toMatch(/internal error|\bat [\w.]+ \(|Error:/);
    expect(readFileSync(path).equals(forged)).toBe(true);

    // Doing what it says: the open checks every line and refuses that one, saying how to keep the rest.
    renameSync(indexPathOf(path), `${indexPathOf(path)}.aside`);
    const again = tole(['--resume', path, '--read-only'], dir, home);
    expect((await again.exit).exitCode).toBe(1);
    const refused = (await again.screen()).replace(/\n/g, '');
    expect(refused).toContain(`line ${lineNo}: checksum matches but the commit is not JSON`);
    expect(refused).toContain(`head -n ${lineNo - 1} ${path} > recovered.jsonl`);
    expect(readFileSync(path).equals(forged)).toBe(true);
  }, 60_000);
});
