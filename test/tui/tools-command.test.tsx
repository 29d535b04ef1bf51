/**
 * `/tools` in the full-screen session, wired as `tole` wires it: every tool with its risk tier
 * and replay class, and whether the running agent profile lets the model have it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startChatServer, type ChatServer } from '../support/chat-server';
import { KEYS, renderScreen, stripAnsi, type Screen } from './harness';
import { wiredSession } from './wired-session';

let screen: Screen | undefined;
let server: ChatServer | undefined;
afterEach(async () => {
  screen?.unmount();
  screen = undefined;
  await server?.close();
});

async function command(s: Screen, text: string): Promise<void> {
  await s.type(text);
  await s.press(KEYS.enter);
}

function row(frame: string, name: string): string {
  return stripAnsi(frame)
    .split('\n')
    .find((line) => new RegExp(`[✓✗] ${name} `).test(line))!
    .replace(/\s+/g, ' ');
}

describe('/tools', () => {
  it('lists each tool with its tier and replay class, and which ones the agent profile allows', async () => {
    server = await startChatServer();
    const wired = wiredSession({ baseUrl: server.url, model: 'tole-test-model' });
    const agents = join(wired.home, '.config', 'tole', 'agents');
    mkdirSync(agents, { recursive: true });
    writeFileSync(join(agents, 'reviewer.json'), JSON.stringify({ tools: ['read_file', 'grep'] }));
    screen = renderScreen({ ...wired, columns: 140, rows: 40 });
    const s = screen;

    await command(s, '/tools');
    let frame = await s.waitFor('offered to the model');
    expect(row(frame, 'read_file')).toContain('✓ read_file ReadOnly idempotent allowed');
    expect(row(frame, 'write_file')).toContain('✓ write_file Write guarded allowed');
    expect(stripAnsi(frame)).toContain('agent profile: none (every tool)');
    await s.press(KEYS.escape);

    await command(s, '/agent reviewer');
    await s.waitFor('agent: reviewer', 5_000);
    await command(s, '/tools');
    frame = await s.waitFor('2 of');
    expect(row(frame, 'grep')).toContain('✓ grep ReadOnly idempotent allowed');
    expect(row(frame, 'write_file')).toContain('✗ write_file Write guarded not allowed by reviewer');
    expect(stripAnsi(frame)).toContain('agent profile: reviewer');
  });
});
