import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppendBatch } from '../../../src/core/session/cursor';
import { renderEntries } from '../../../src/core/session/context';
import { exportLeaf, exportMarkdown } from '../../../src/core/session/export';
import { checkSessionFile } from '../../../src/core/storage/check';
import { SessionStore } from '../../../src/core/storage/session-store';
import { seededRandom, systemClock } from '../../../src/core/clock';
import type { SessionEvent } from '../../../src/core/session/events';
import { chatRequests, entriesOfType } from '../../support/agent-fixtures';
import { scriptedAgentPerTest } from '../../support/scripted-agent';

const scripted = scriptedAgentPerTest();

const lastUserText = (messages: ReadonlyArray<{ role: string; content?: unknown }>): string =>
  String(messages.filter((m) => m.role === 'user').at(-1)?.content);

describe('a prompt with @path', () => {
  it('commits the file in its user entry before the model call, which gets it in a block naming the path; an email attaches nothing', async () => {
    writeFileSync(join(scripted.dirs.root, 'a.txt'), 'alpha\n');
    writeFileSync(join(scripted.dirs.root, 'example.com'), 'never this\n');
    scripted.server.push({ text: ['Read it.'] });
    const { agent, store } = scripted.agent();

    const result = await agent.runTurn('explain @a.txt, mail me@example.com', new AbortController().signal, () => {});

    expect(result.outcome).toBe('done');
    const [user] = entriesOfType(store, 'user');
    expect(user!.payload).toEqual({
      text: 'explain @a.txt, mail me@example.com',
      attachments: [{ path: 'a.txt', kind: 'file', text: 'alpha\n', size: 6 }],
    });
    const [request] = chatRequests(scripted.server);
    expect(lastUserText(request!.body!.messages ?? [])).toBe(
      'explain @a.txt, mail me@example.com\n\n<attachment path="a.txt" (6 bytes)>\nalpha\n\n</attachment>',
    );
    // Reopened, the session gives the model the same text (the file is not read again).
    writeFileSync(join(scripted.dirs.root, 'a.txt'), 'changed since\n');
    const reopened = SessionStore.open(store.path, { clock: systemClock, random: seededRandom(2), readOnly: true });
    expect(lastUserText(renderEntries([...reopened.tree.all()]))).toContain('alpha\n');
    expect(exportMarkdown(reopened, exportLeaf(reopened, {}))).toContain('**attached** `a.txt` (6 bytes)');
    reopened.close();
  });

  it('that leaves the workspace is not attached: the model reads a notice saying why', async () => {
    scripted.server.push({ text: ['ok'] });
    const { agent, store } = scripted.agent();
    const events: SessionEvent[] = [];

    await agent.runTurn('look at @/etc/passwd', new AbortController().signal, (e) => events.push(e));

    expect(entriesOfType(store, 'user')[0]!.payload).toEqual({ text: 'look at @/etc/passwd' });
    const [notice] = entriesOfType(store, 'notice');
    expect(notice!.payload).toMatchObject({
      toModel: true,
      text: expect.stringMatching(/^not attached: @\/etc\/passwd: .*outside the workspace/),
    });
    expect(JSON.stringify(chatRequests(scripted.server)[0]!.body!.messages)).not.toContain('root:');
  });

  it('sent as steering into a running turn carries its file too', async () => {
    writeFileSync(join(scripted.dirs.root, 'a.txt'), 'alpha\n');
    writeFileSync(join(scripted.dirs.root, 'b.md'), 'beta\n');
    scripted.server.push(
      { toolCalls: [{ id: 'call_read', name: 'read_file', arguments: '{"path":"a.txt"}' }] },
      { text: ['ok'] },
    );
    const { agent, store } = scripted.agent();
    const emit = (event: SessionEvent): void => {
      if (event.type === 'tool-call') agent.steer('and @b.md');
    };

    await agent.runTurn('read a.txt', new AbortController().signal, emit);

    expect(entriesOfType(store, 'user')[1]!.payload).toEqual({
      text: 'and @b.md',
      steered: true,
      attachments: [{ path: 'b.md', kind: 'file', text: 'beta\n', size: 5 }],
    });
    expect(lastUserText(chatRequests(scripted.server)[1]!.body!.messages ?? [])).toContain(
      '<attachment path="b.md" (5 bytes)>\nbeta\n',
    );
  });
});

describe('a malformed attachments field in a session file', () => {
  it('is refused by the context, the export and tole check, naming the entry and what is wrong', () => {
    const store = SessionStore.create(scripted.dirs.sessions, {
      clock: systemClock,
      random: seededRandom(3),
      cwd: scripted.dirs.root,
    });
    const batch = new AppendBatch(store);
    const id = batch.entry('user', { text: 'x', attachments: [{ path: 'a', kind: 'socket' }] as never });
    store.commit(batch.build());
    const words = new RegExp(`user entry ${id} has malformed attachments \\(attachment 1: its kind is "socket"`);
    expect(() => renderEntries([...store.tree.all()])).toThrow(words);
    expect(() => exportMarkdown(store, exportLeaf(store, {}))).toThrow(words);
    store.close();
    const report = checkSessionFile(store.path);
    expect(report.ok).toBe(false);
    expect(report.problem?.message).toMatch(words);
  });
});
