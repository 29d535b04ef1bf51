import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { childScript } from '../../support/test-children';
import { tempDirForTest } from '../../support/after-the-test';

let child: ChildProcess | undefined;
let dir: string | undefined;

afterEach(() => {
  child?.kill('SIGKILL');
  child = undefined;
});

function listeningUrl(process: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    process.stdout?.on('data', (data: Buffer) => {
      stdout += data.toString();
      const match = /^listening (\S+)$/m.exec(stdout);
      if (match) resolve(match[1]);
    });
    process.stderr?.on('data', (data: Buffer) => (stderr += data.toString()));
    process.once('exit', (code) => reject(new Error(`chat server exited with ${code}: ${stderr}`)));
  });
}

async function chat(url: string, content: string): Promise<{ choices: Array<{ message: { content: string } }> }> {
  const response = await fetch(`${url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content }] }),
  });
  return (await response.json()) as { choices: Array<{ message: { content: string } }> };
}

describe('chat server as a process', () => {
  it('serves the scripted replies, then echoes, and records requests', async () => {
    dir = tempDirForTest('tole-chat-server-');
    const script = join(dir, 'script.json');
    const record = join(dir, 'requests.jsonl');
    writeFileSync(script, JSON.stringify([{ text: ['first ', 'scripted'] }]));
    child = spawn(process.execPath, [childScript('chat-server'), '--script', script, '--record', record], {
      cwd: process.cwd(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });

    const url = await listeningUrl(child);

    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect((await chat(url, 'one')).choices[0].message.content).toBe('first scripted');
    expect((await chat(url, 'two')).choices[0].message.content).toBe('echo: two');
    const recorded = readFileSync(record, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(recorded.map((request) => request.body.messages[0].content)).toEqual(['one', 'two']);
  });
});
