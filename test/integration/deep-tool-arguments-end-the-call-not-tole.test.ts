/**
 * A model's tool call whose arguments nest deeper than the stack (`[[[…]]]` 20,000 deep: JSON.parse
 * takes it, JSON.stringify and recursive code do not) ends that call with an error the model reads;
 * tole neither crashes nor loses the session, and the next call runs.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileChatServer } from '../support/file-chat-server';
import { onlySessionFile, tempDirs } from '../support/agent-fixtures';
import { runBuiltTole } from '../support/built-tole';

const chat = fileChatServer({ defaultReply: { text: 'done' } }, { built: true });

const DEEP = 20_000;
const deep = (inner: string): string => `${'['.repeat(DEEP)}${inner}${']'.repeat(DEEP)}`;

describe('tool arguments nested deeper than the stack', () => {
  for (const [tool, args] of [
    ['bash', `{"command":"echo hi","timeout_ms":${deep('1')}}`],
    ['bash', `{"command":${deep('"echo hi"')}}`],
    ['read_file', `{"path":"a.txt","x":${deep('0')}}`],
  ] as const) {
    it(`${tool} ${args.slice(0, 30)}…: the call ends, the turn goes on, the session reads back`, async () => {
      const d = tempDirs('tole-deep-');
      chat.server.push(
        { toolCalls: [{ id: 'c_deep', name: tool, arguments: args }] },
        { toolCalls: [{ id: 'c_next', name: 'bash', arguments: JSON.stringify({ command: 'echo NEXT-RAN' }) }] },
        { text: 'done' },
      );
      const run = await runBuiltTole(['-p', 'go', '--yes', '--base-url', chat.server.url, '--model', 'm'], {
        cwd: d.root,
        env: { PATH: process.env.PATH, HOME: d.parent, TOLE_HOME: d.home, LANG: 'C.UTF-8', OPENAI_API_KEY: 'sk-test' },
      });
      expect(run.code, run.stderr).toBe(0);
      const session = readFileSync(onlySessionFile(join(d.home, 'sessions')), 'utf8');
      expect(session).toContain('NEXT-RAN');
    });
  }
});
