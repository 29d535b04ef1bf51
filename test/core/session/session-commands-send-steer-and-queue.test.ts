/**
 * A prompt typed while the session works goes through the session's commands: sent when nothing
 * runs, into the running turn (steering), or into the queue behind it; each refusal typed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_QUEUED_PROMPTS, type PromptRunner } from '../../../src/core/session/prompt-runner';
import { SessionCommands } from '../../../src/core/session/session-commands';
import { createStore, memoryTempDir, openStore } from '../../support/storage-fixtures';

const dirs: { remove(): void }[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) dir.remove();
});

/** A runner doing `work`, which records what it was asked; `takesSteering` false: the turn takes none. */
function runner(work: PromptRunner['work'], takesSteering = true) {
  const asked: string[] = [];
  const queued: string[] = [];
  const prompts: PromptRunner = {
    work,
    queued,
    start: (prompt) => (asked.push(`start ${prompt}`), work === 'none'),
    enqueue: (prompt) => void queued.push(prompt),
    dequeue: (index) => (index >= 0 && index < queued.length ? queued.splice(index, 1)[0]! : null),
    steer: (text) => (asked.push(`steer ${text}`), takesSteering),
  };
  return { prompts, asked, queued };
}

function commands(prompts?: PromptRunner, readOnly = false): SessionCommands {
  const dir = memoryTempDir('tole-send-');
  dirs.push(dir);
  let store = createStore(dir.path);
  if (readOnly) {
    store.close();
    store = openStore(store.path, { readOnly: true });
  }
  return new SessionCommands(store, {}, () => prompts !== undefined && prompts.work !== 'none', prompts);
}

describe('sending a prompt through the session commands', () => {
  it('starts a turn when nothing runs, whether it was to steer or to queue', () => {
    for (const how of ['steer', 'queue'] as const) {
      const r = runner('none');
      expect(commands(r.prompts).send('hello', how)).toEqual({ ok: true, how: 'sent' });
      expect(r.asked).toEqual(['start hello']);
      expect(r.queued).toEqual([]);
    }
  });

  it('steers a running turn, or queues behind it when asked to', () => {
    const r = runner('turn');
    const session = commands(r.prompts);
    expect(session.send('shorter, please')).toEqual({ ok: true, how: 'steered' });
    expect(session.send('then the tests', 'queue')).toEqual({ ok: true, how: 'queued' });
    expect(r.asked).toEqual(['steer shorter, please']);
    expect(r.queued).toEqual(['then the tests']);
  });

  it('never steers a !command into a turn: it waits for the turn to end', () => {
    const r = runner('turn');
    expect(commands(r.prompts).send('!npm test')).toEqual({ ok: true, how: 'queued' });
    // Led by whitespace or a line break it is still a !command (it runs as one): never steered.
    expect(commands(r.prompts).send(' \n\t!rm -rf build')).toEqual({ ok: true, how: 'queued' });
    expect(r.asked).toEqual([]);
    expect(r.queued).toEqual(['!npm test', ' \n\t!rm -rf build']);
  });

  it('queues behind work that is not a turn, and when the turn takes no steering', () => {
    const other = runner('other');
    expect(commands(other.prompts).send('after the compaction')).toEqual({ ok: true, how: 'queued' });
    expect(other.asked).toEqual([]);
    const ending = runner('turn', false);
    expect(commands(ending.prompts).send('too late to steer')).toEqual({ ok: true, how: 'queued' });
    expect(ending.queued).toEqual(['too late to steer']);
  });

  it('refuses a prompt past a full queue, saying what to do, and keeps the queue as it was', () => {
    const r = runner('turn');
    const session = commands(r.prompts);
    for (let i = 0; i < MAX_QUEUED_PROMPTS; i++) expect(session.send(`p${i}`, 'queue')).toMatchObject({ ok: true });
    const refused = session.send('one more', 'queue');
    expect(refused).toMatchObject({ ok: false, reason: 'queue-full' });
    expect(refused.ok === false && refused.message).toMatch(/Esc/);
    expect(r.queued).toHaveLength(MAX_QUEUED_PROMPTS);
    expect(r.queued).not.toContain('one more');
    // Steering still goes in: it does not wait in the queue.
    expect(session.send('steer anyway')).toEqual({ ok: true, how: 'steered' });
  });

  it('a read-only session, and a host that runs no turns, send nothing', () => {
    const r = runner('none');
    expect(commands(r.prompts, true).send('hello')).toMatchObject({ ok: false, reason: 'read-only' });
    expect(r.asked).toEqual([]);
    expect(commands(undefined).send('hello')).toMatchObject({ ok: false, reason: 'no-turns' });
  });

  it('a runner that will not start a turn (a view made read-only over a writable file) queues nothing it would never send', () => {
    const r = runner('none');
    const refusing: PromptRunner = { ...r.prompts, start: () => false };
    expect(commands(refusing).send('hello')).toMatchObject({ ok: false, reason: 'read-only' });
    expect(commands(refusing).send('hello', 'queue')).toMatchObject({ ok: false, reason: 'read-only' });
    expect(r.queued).toEqual([]);
  });

  it('takes a queued prompt out by its place, says how many are left, and refuses one that is not there', () => {
    const r = runner('turn');
    const session = commands(r.prompts);
    for (const text of ['a', 'b', 'c']) session.send(text, 'queue');
    expect(session.takeQueued(1)).toEqual({ ok: true, text: 'b', left: 2 });
    expect(r.queued).toEqual(['a', 'c']);
    expect(session.takeQueued(2)).toMatchObject({ ok: false, reason: 'not-queued' });
    expect(session.takeQueued(-1)).toMatchObject({ ok: false, reason: 'not-queued' });
    expect(commands(undefined).takeQueued(0)).toMatchObject({ ok: false, reason: 'not-queued' });
  });
});
