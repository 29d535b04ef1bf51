/**
 * The built `tole` with checkpoints: a headless `--yes` turn overwrites a file (its intent names a
 * checkpoint under the temp TOLE_HOME), then `tole restore --dry-run` shows the change without
 * making it, `tole restore` makes it (and says how to undo it), `tole export` lists the
 * checkpoints, and `tole check` finds them, or reports the missing ones without failing.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom, systemClock } from '../../src/core/clock';
import { SessionStore } from '../../src/core/storage/session-store';
import { ensureBuilt, runBuiltTole } from '../support/built-tole';
import { startChatServer, type ChatServer } from '../support/chat-server';
import type { ChildRun } from '../support/spawn-node';
import { tempDirForFile } from '../support/after-the-test';

let server: ChatServer;
const root = tempDirForFile('tole-restore-cli-');
let project: string;
let toleHomeDir: string;
let env: NodeJS.ProcessEnv;
let session: { id: string; path: string; firstEntry: string };

function tole(args: readonly string[]): Promise<ChildRun> {
  return runBuiltTole(args, { cwd: project, env });
}

beforeAll(async () => {
  ensureBuilt();
  server = await startChatServer({ defaultReply: { text: 'done' } });
  project = join(root, 'project');
  toleHomeDir = join(root, 'tole-home');
  mkdirSync(project);
  env = {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: join(root, 'home'),
    TOLE_HOME: toleHomeDir,
    OPENAI_API_KEY: 'sk-test',
  };
  writeFileSync(join(project, 'notes.txt'), 'the original notes\n');
  server.push({
    toolCalls: [
      { id: 'w1', name: 'write_file', arguments: JSON.stringify({ path: 'notes.txt', content: 'overwritten\n' }) },
    ],
  });
  const run = await tole(['-p', 'rewrite the notes', '--yes', '--base-url', server.url, '--model', 'm']);
  expect(run.code, run.stderr).toBe(0);
  const id = /tole: session (\S+)/.exec(run.stderr)![1]!;
  const path = join(toleHomeDir, 'sessions', `${id}.jsonl`);
  const store = SessionStore.open(path, { clock: systemClock, random: seededRandom(1), readOnly: true });
  const firstEntry = [...store.tree.all()].find((e) => e.type === 'user')!.id;
  store.close();
  session = { id, path, firstEntry };
}, 120_000);

afterAll(async () => {
  await server.close();
});

describe('tole restore, export and check with checkpoints', () => {
  it('restores the files: --dry-run first changes nothing, then the restore brings the bytes back', async () => {
    expect(readFileSync(join(project, 'notes.txt'), 'utf8')).toBe('overwritten\n');
    const dry = await tole(['restore', session.id, '--entry', session.firstEntry, '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/0 to create · 1 to overwrite · 0 to remove/);
    expect(dry.stdout).toContain('~ notes.txt');
    expect(readFileSync(join(project, 'notes.txt'), 'utf8')).toBe('overwritten\n');

    const real = await tole(['restore', session.id, '--entry', session.firstEntry]);
    expect(real.code, real.stderr).toBe(0);
    expect(readFileSync(join(project, 'notes.txt'), 'utf8')).toBe('the original notes\n');
    const undo = /to undo it: tole restore \S+ --entry (\S+)\)/.exec(real.stdout)?.[1];
    expect(undo).toBeDefined();

    const back = await tole(['restore', session.path, '--entry', undo!]);
    expect(back.code, back.stderr).toBe(0);
    expect(readFileSync(join(project, 'notes.txt'), 'utf8')).toBe('overwritten\n');
  });

  it('export lists every checkpoint; check finds them, and reports a missing one without failing', async () => {
    const md = await tole(['export', session.id, '--format', 'md']);
    expect(md.code, md.stderr).toBe(0);
    expect(md.stdout).toContain('## Checkpoints');
    expect(md.stdout).toMatch(/before write_file notes\.txt/);
    const json = await tole(['export', session.id, '--format', 'json']);
    const doc = JSON.parse(json.stdout) as { checkpoints: { entryId: string; checkpoint: string }[] };
    expect(doc.checkpoints.length).toBeGreaterThanOrEqual(1);
    expect(doc.checkpoints[0]!.checkpoint).toMatch(/^[0-9a-f]{40}$/);

    const sound = await tole(['check', session.path]);
    expect(sound.code, sound.stdout).toBe(0);
    expect(sound.stdout).toMatch(/checkpoints: \d+ named, all present/);

    rmSync(join(toleHomeDir, 'checkpoints'), { recursive: true, force: true });
    const missing = await tole(['check', session.path]);
    expect(missing.code, missing.stdout).toBe(0);
    expect(missing.stdout).toMatch(/checkpoints: \d+ named, \d+ MISSING/);
    expect(missing.stdout).toContain(`named by entry ${doc.checkpoints[0]!.entryId}`);
  });

  it('restore without an entry is a usage error that says what to give', async () => {
    const run = await tole(['restore', session.id]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--entry ENTRY/);
  });
});
