/**
 * The built `tole -p` keeps the compiled code of its script (dist/headless.cjs) under the user's
 * cache folder: a turn that compiled it and ended well writes the cache after its last output, a
 * later turn uses it, and what it prints and its exit code are the same byte for byte either way.
 * A cache of another build, cut short, damaged, or not the user's, reads as none; a cache folder
 * that cannot be written, or is not the user's, costs only the time. A probe preloaded into tole
 * (test/support/code-cache-probe.mjs) says whether V8 took a cache and whether tole made one.
 */
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { open } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import packageJson from '../../package.json';
import { codeCacheFile, codeCacheKey, readCodeCache } from '../../src/cli/code-cache';
import { tempDirForTest } from '../support/after-the-test';
import { ensureBuilt, startBuiltTole, TOLE_JS } from '../support/built-tole';
import type { ChatServer } from '../support/chat-server';
import { chatServerForTest } from '../support/chat-server-for-test';
import { closedPort } from '../support/closed-port';
import type { ChildRun, StartedChild } from '../support/spawn-node';

beforeAll(() => ensureBuilt(), 120_000);

const PROBE = resolve('test/support/code-cache-probe.mjs');
const SCRIPT = join(TOLE_JS, '..', 'headless.cjs');
/** Root may chown a file to another user; anyone else cannot, and those cases are then left out. */
const IS_ROOT = process.getuid?.() === 0;
const NOBODY = 65534;
/** A turn that compiled the script from source and asked V8 for a cache to write. */
const COMPILED_AND_SAVED = ['loaded headless.cjs none', 'saving headless.cjs'];

interface Run extends ChildRun {
  /** The probe's lines: what tole did with its code cache. */
  readonly probed: readonly string[];
}

interface Place {
  readonly home: string;
  readonly workspace: string;
  /** $XDG_CACHE_HOME: the cache is in `tole/` under it. */
  readonly cacheHome: string;
}

function place(cacheHome?: string): Place {
  const home = tempDirForTest('tole-headless-cache-home-');
  const workspace = join(home, 'work');
  mkdirSync(workspace);
  return { home, workspace, cacheHome: cacheHome ?? join(home, 'cache') };
}

/** The cache file this build's script has in `cacheHome`, and the key it is checked with. */
function cacheOf(cacheHome: string): { file: string; key: ReturnType<typeof codeCacheKey> } {
  const key = codeCacheKey(readFileSync(SCRIPT), packageJson.version);
  return { file: codeCacheFile(join(cacheHome, 'tole'), 'headless', key), key };
}

/** The user's config in `where` allows one attempt a turn (`limits.maxAttempts`). */
function oneAttempt(where: Place): void {
  const config = join(where.home, '.config', 'tole');
  mkdirSync(config, { recursive: true });
  writeFileSync(join(config, 'config.json'), JSON.stringify({ limits: { maxAttempts: 1 } }));
}

function startTurn(server: ChatServer, where: Place, baseUrl = server.url): { started: StartedChild; probe: string } {
  const probe = join(tempDirForTest('tole-headless-cache-probe-'), 'probe.log');
  const started = startBuiltTole(['-p', 'say hi', '--base-url', baseUrl, '--model', 'm'], {
    cwd: where.workspace,
    env: {
      PATH: process.env['PATH'],
      HOME: where.home,
      TOLE_HOME: join(where.home, '.tole'),
      XDG_CACHE_HOME: where.cacheHome,
      LANG: 'C.UTF-8',
      NODE_OPTIONS: `--import=${PROBE}`,
      CODE_CACHE_PROBE_FILE: probe,
    },
  });
  return { started, probe };
}

function probedLines(probe: string): string[] {
  return existsSync(probe) ? readFileSync(probe, 'utf8').split('\n').filter(Boolean) : [];
}

async function turn(server: ChatServer, where: Place, baseUrl?: string): Promise<Run> {
  const { started, probe } = startTurn(server, where, baseUrl);
  const run = await started.done;
  return { ...run, probed: probedLines(probe) };
}

/** What a run told, with the new session's id (each turn makes its own session) made one. */
function told(run: ChildRun): { code: number | null; stdout: string; stderr: string } {
  return { code: run.code, stdout: run.stdout, stderr: run.stderr.replace(/session \S+/g, 'session ID') };
}

/**
 * The probe's lines about the script. Its `saved` line comes a turn of the loop after the write,
 * which `tole -p` does not wait for (it exits once the cache is written): left out.
 */
function headlessLoads(run: Run): string[] {
  return run.probed.filter((line) => line.includes('headless.cjs') && !line.startsWith('saved '));
}

describe("the built tole -p's code cache", () => {
  it('is written after a turn that compiled, then used, with the same output and exit code', async () => {
    const server = await chatServerForTest({ defaultReply: { text: ['hi ', 'there'] } });
    const where = place();
    const first = await turn(server, where);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toBe('hi there\n');
    expect(headlessLoads(first)).toEqual(COMPILED_AND_SAVED);
    const { file, key } = cacheOf(where.cacheHome);
    expect(readCodeCache(file, key)).not.toBeNull();
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(where.cacheHome, 'tole')).mode & 0o777).toBe(0o700);
    // Never in the workspace.
    expect(readdirSync(where.workspace)).toEqual([]);
    const written = readFileSync(file);

    const second = await turn(server, where);
    expect(headlessLoads(second)).toEqual(['loaded headless.cjs accepted']);
    expect(told(second)).toEqual(told(first));
    expect(readFileSync(file).equals(written)).toBe(true);
  }, 60_000);

  it('reads as none when it is of another build, cut short, damaged, or not a cache, and a good one replaces it', async () => {
    const server = await chatServerForTest({ defaultReply: { text: 'answer' } });
    const where = place();
    const first = await turn(server, where);
    const { file, key } = cacheOf(where.cacheHome);
    const good = readFileSync(file);
    const newline = good.indexOf(10);
    const header = JSON.parse(good.subarray(0, newline).toString()) as Record<string, unknown>;
    const withHeader = (changes: Record<string, unknown>): Buffer =>
      Buffer.concat([Buffer.from(JSON.stringify({ ...header, ...changes })), good.subarray(newline)]);
    const cases: Record<string, Buffer> = {
      'another tole version': withHeader({ tole: '0.0.0-other' }),
      'another Node': withHeader({ node: 'v0.0.1' }),
      'another source of the same name': withHeader({ sourceBytes: (header['sourceBytes'] as number) + 1 }),
      'cut short': good.subarray(0, good.length - 1000),
      'cut in its header': good.subarray(0, newline - 5),
      'a byte of the code changed': Buffer.from(good).fill(
        good[good.length - 50]! ^ 0xff,
        good.length - 50,
        good.length - 49,
      ),
      empty: Buffer.alloc(0),
      'not a cache': Buffer.from('#!/bin/sh\necho hi\n'),
    };
    for (const [name, bytes] of Object.entries(cases)) {
      writeFileSync(file, bytes, { mode: 0o600 });
      const run = await turn(server, where);
      expect(headlessLoads(run), name).toEqual(COMPILED_AND_SAVED);
      expect(told(run), name).toEqual(told(first));
      expect(readCodeCache(file, key), name).not.toBeNull();
    }
    // A FIFO where the cache would be: not waited on (no one writes it), not a cache, replaced.
    rmSync(file);
    execFileSync('mkfifo', ['-m', '600', file]);
    const fifo = await turn(server, where);
    expect(headlessLoads(fifo)).toEqual(COMPILED_AND_SAVED);
    expect(told(fifo)).toEqual(told(first));
    expect(readCodeCache(file, key)).not.toBeNull();
  }, 120_000);

  it('is not used when others may write it, or it or its folder is not the user’s, and nothing is left in a folder not the user’s', async () => {
    const server = await chatServerForTest({ defaultReply: { text: 'answer' } });
    const where = place();
    const first = await turn(server, where);
    const { file } = cacheOf(where.cacheHome);
    const folder = join(where.cacheHome, 'tole');

    // A cache others may write: not used; the fresh one written in its place is the user's alone.
    chmodSync(file, 0o666);
    const writable = await turn(server, where);
    expect(headlessLoads(writable)[0]).toBe('loaded headless.cjs none');
    expect(told(writable)).toEqual(told(first));
    expect(statSync(file).mode & 0o777).toBe(0o600);

    // A folder others may write in: its cache is not used, and none is written there.
    chmodSync(folder, 0o777);
    const before = readFileSync(file);
    const open = await turn(server, where);
    expect(headlessLoads(open)).toEqual(COMPILED_AND_SAVED);
    expect(told(open)).toEqual(told(first));
    expect(readFileSync(file).equals(before)).toBe(true);
    chmodSync(folder, 0o700);

    if (IS_ROOT) {
      // Owned by another user: the file, then the folder.
      chownSync(file, NOBODY, NOBODY);
      const foreignFile = await turn(server, where);
      expect(headlessLoads(foreignFile)[0]).toBe('loaded headless.cjs none');
      expect(told(foreignFile)).toEqual(told(first));
      expect(statSync(file).uid).toBe(0);
      chownSync(folder, NOBODY, NOBODY);
      const kept = readFileSync(file);
      const foreignFolder = await turn(server, where);
      expect(headlessLoads(foreignFolder)[0]).toBe('loaded headless.cjs none');
      expect(told(foreignFolder)).toEqual(told(first));
      expect(readdirSync(folder)).toEqual([file.split('/').at(-1)]);
      expect(readFileSync(file).equals(kept)).toBe(true);
      chownSync(folder, 0, 0);
    }
  }, 120_000);

  it('that cannot be written costs nothing but the time: same output, same exit code', async () => {
    const server = await chatServerForTest({ defaultReply: { text: 'answer' } });
    const cached = await turn(server, place());
    const home = tempDirForTest('tole-headless-cache-file-');
    // A file where the folder would be: not writable even for root.
    writeFileSync(join(home, 'a-file'), '');
    const run = await turn(server, place(join(home, 'a-file', 'cache')));
    expect(headlessLoads(run)).toEqual(COMPILED_AND_SAVED);
    expect(told(run)).toEqual(told(cached));
  }, 60_000);

  it('is not written after a turn that failed, and a failed turn tells the same with or without it', async () => {
    const server = await chatServerForTest({ defaultReply: { text: 'answer' } });
    const where = place();
    // One attempt: the failure is the same, and the turn does not wait out tole's retries first.
    oneAttempt(where);
    const closed = `http://127.0.0.1:${await closedPort()}/v1`;
    const failed = await turn(server, where, closed);
    expect(failed.code).not.toBe(0);
    expect(headlessLoads(failed)).toEqual(['loaded headless.cjs none']);
    expect(existsSync(cacheOf(where.cacheHome).file)).toBe(false);
    await turn(server, where);
    const again = await turn(server, where, closed);
    expect(headlessLoads(again)).toEqual(['loaded headless.cjs accepted']);
    expect(told(again)).toEqual(told(failed));
  }, 60_000);

  it('killed (SIGKILL) while it writes its cache: the turn had said all it says, and the cache reads as none', async () => {
    const server = await chatServerForTest({ defaultReply: { text: ['hi ', 'there'] } });
    const where = place();
    const { file, key } = cacheOf(where.cacheHome);
    mkdirSync(join(where.cacheHome, 'tole'), { recursive: true, mode: 0o700 });
    const { started } = startTurn(server, where);
    // tole writes `<cache>.<pid>.tmp` and renames it: made a FIFO, that write waits for this
    // reader, and the child is killed holding half a cache. (Made before the child can reach its
    // save, which comes after a whole turn; were it not, mkfifo would fail and so the test.)
    const temporary = `${file}.${started.child.pid}.tmp`;
    execFileSync('mkfifo', ['-m', '600', temporary]);
    const reader = await open(temporary, 'r');
    try {
      const { bytesRead, buffer } = await reader.read({ buffer: Buffer.alloc(4096) });
      expect(buffer.subarray(0, bytesRead).toString('latin1')).toContain('"format":"tole-code-cache/1"');
      started.child.kill('SIGKILL');
      const run = await started.done;
      expect(run.signal).toBe('SIGKILL');
      expect(run.stdout).toBe('hi there\n');
    } finally {
      await reader.close();
    }
    expect(readCodeCache(file, key)).toBeNull();
    // The next turn compiles, and writes a whole cache.
    const next = await turn(server, where);
    expect(headlessLoads(next)).toEqual(COMPILED_AND_SAVED);
    expect(readCodeCache(file, key)).not.toBeNull();
  }, 60_000);
});
