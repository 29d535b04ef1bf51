import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readConfigFile } from '../../src/cli/config';
import { planMcpServers } from '../../src/cli/mcp-setup';
import { tempDirForTest } from '../support/after-the-test';

function configFile(value: unknown): string {
  const path = join(tempDirForTest('tole-mcp-config-'), 'config.json');
  writeFileSync(path, JSON.stringify(value));
  return path;
}

const readMcp = (servers: unknown) => () => readConfigFile(configFile({ mcpServers: servers }));

describe('mcpServers in a config file', () => {
  it('is checked field by field, naming the server and the field', () => {
    expect(readMcp({ db: { command: 'x', url: 'http://127.0.0.1:1/mcp' } })).toThrow(
      /field "mcpServers.db": give either "command".*or "url"/,
    );
    expect(readMcp({ db: {} })).toThrow(/field "mcpServers.db": give either/);
    expect(readMcp({ db: { command: 'x', headers: { A: 'b' } } })).toThrow(
      /field "mcpServers.db.headers": not a field of a server with "command"/,
    );
    expect(readMcp({ db: { url: 'http://127.0.0.1:1/mcp', env: { A: 'b' } } })).toThrow(
      /field "mcpServers.db.env": not a field of a server with "url"/,
    );
    expect(readMcp({ db: { command: 'x', passEnv: ['NOT A NAME'] } })).toThrow(
      /mcpServers.db.passEnv.0.*environment variable/,
    );
    expect(readMcp({ db: { command: 'x', tools: { q: { risk: 'Harmless' } } } })).toThrow(/mcpServers.db.tools.q.risk/);
    expect(readMcp({ db: { command: 'x', trustAnnotation: true } })).toThrow(
      /field "mcpServers.db.trustAnnotation" is not a config field/,
    );
  });

  it('takes header keys from the variables it names, and skips a server whose variable is not set', () => {
    const config = readConfigFile(
      configFile({
        mcpServers: {
          api: {
            url: 'http://127.0.0.1:9/mcp',
            headers: { 'X-Team': 'a' },
            headersFromEnv: { Authorization: 'API_AUTH' },
          },
        },
      }),
    );
    const plan = (env: NodeJS.ProcessEnv) =>
      planMcpServers({ config, projectMcp: null, projectTrusted: false, env, workspaceRoot: '/w' });
    expect(plan({ API_AUTH: 'Bearer t' }).specs[0]?.transport).toEqual({
      kind: 'http',
      url: 'http://127.0.0.1:9/mcp',
      headers: { 'X-Team': 'a', Authorization: 'Bearer t' },
    });
    expect(plan({}).skipped).toEqual([{ name: 'api', reason: expect.stringContaining('API_AUTH, which is not set') }]);
  });
});
