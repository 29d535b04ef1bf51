import { afterEach, describe, expect, it } from 'vitest';
import { seededRandom, systemClock } from '../../src/core/clock';
import { ProviderOnUse } from '../../src/core/provider/provider-on-use';
import { SwitchableProvider } from '../../src/core/provider/switchable-provider';
import { type ModelServer, ServerModels } from '../../src/cli/server-models';
import { type ChatServer, startChatServer } from '../support/chat-server';
import { emptyStore } from './session-fixture';
import { eventually, KEYS, renderScreen, stripAnsi, type Screen } from './harness';

let screen: Screen | null = null;
const servers: ChatServer[] = [];
afterEach(async () => {
  screen?.unmount();
  screen = null;
  for (const server of servers.splice(0)) await server.close();
});

async function shows(text: string | RegExp): Promise<string> {
  return eventually(() => {
    const frame = stripAnsi(screen!.frame());
    if (typeof text === 'string' ? !frame.includes(text) : !text.test(frame))
      throw new Error(`screen does not show ${String(text)}:\n${frame}`);
    return frame;
  });
}

/** A provider on a local chat server, its model-list asks counted. */
async function serverOf(options: Parameters<typeof startChatServer>[0]): Promise<ModelServer & { asks: number }> {
  const server = await startChatServer(options);
  servers.push(server);
  const provider = new SwitchableProvider(
    new ProviderOnUse('openai-chat', {
      baseURL: server.url,
      apiKey: 'k',
      random: seededRandom(1),
      clock: systemClock,
      sleep: async () => {},
      retry: { jitter: 'none', maxAttempts: 1 },
    }),
    'local',
    server.url,
  );
  const counted = {
    asks: 0,
    get usable() {
      return provider.usable;
    },
    get name() {
      return provider.name;
    },
    get address() {
      return provider.address;
    },
    listModels: () => {
      counted.asks++;
      return provider.listModels();
    },
  };
  return counted;
}

describe('/model completion', () => {
  it("offers the server's models, asked once for the session, and Tab inserts one", async () => {
    const server = await serverOf({
      models: [
        { id: 'qwen-coder-32b', object: 'model' },
        { id: 'llama-3.3-70b', object: 'model', context_length: 131072 },
      ],
    });
    screen = renderScreen({ store: emptyStore(), columns: 100, rows: 30, models: new ServerModels(server) });
    await screen.type('/model ');
    let frame = await shows('qwen-coder-32b');
    expect(frame).toContain('llama-3.3-70b');
    await screen.type('cod');
    frame = await shows(/▸ qwen-coder-32b/);
    expect(frame).not.toContain('llama-3.3-70b');
    await screen.press(KEYS.tab);
    await shows(/❯ \/model qwen-coder-32b/);
    await screen.press(KEYS.enter);
    await shows('model: qwen-coder-32b (from the next model call on)');
    await screen.type('/model l');
    await shows('▸ llama-3.3-70b');
    expect(server.asks).toBe(1);
  });

  it('a server without a model list: the popup says so and the name is typed as before', async () => {
    const server = await serverOf({ noModelList: true });
    screen = renderScreen({ store: emptyStore(), columns: 120, rows: 30, models: new ServerModels(server) });
    await screen.type('/model ');
    await shows(/type the model's name \(local did not list its models: .*404/);
    await screen.type('my-model');
    await shows(/❯ \/model my-model/);
  });

  it('a server that never answers holds up no key: the popup says it is asking', async () => {
    const silent: ModelServer = {
      usable: true,
      name: 'slowpoke',
      address: 'http://127.0.0.1:9/v1',
      listModels: () => new Promise(() => {}),
    };
    screen = renderScreen({ store: emptyStore(), columns: 100, rows: 30, models: new ServerModels(silent) });
    await screen.type('/model ');
    await shows('asking slowpoke for its models…');
    await screen.type('abc');
    await shows(/❯ \/model abc/);
  });

  it("offers only ids a person could type: a hostile server's escapes, newlines, spaces, bidi overrides, zero-width marks, tags and 10,000-character ids are left out", async () => {
    const hostile: ModelServer = {
      usable: true,
      name: 'hostile',
      address: 'http://127.0.0.1:9/v1',
      listModels: async () => [
        { id: 'ok-model' },
        { id: '\x1b]52;c;cm0gLXJmIH4=\x07evil' },
        { id: 'two\nlines' },
        { id: 'rm -rf ~' },
        { id: 'x'.repeat(10_000) },
        { id: '' },
        { id: 'del\x7f' },
        { id: 'ok-model\u200b' },
        { id: 'gpt\u202elanimret' },
        { id: 'joined\u2060' },
        { id: 'tagged\u{e0041}' },
        { id: 'nbsp\u00a0id' },
        { id: 'lone\ud800' },
      ],
    };
    const models = new ServerModels(hostile);
    models.items();
    await eventually(() => expect(models.items().map((m) => m.insert)).toEqual(['ok-model']));
  });

  it('asks again when the provider changes (a /connect), and says when none is set up', async () => {
    const first = await serverOf({ models: [{ id: 'first-model', object: 'model' }] });
    let current: ModelServer = { usable: false, name: 'none', address: null, listModels: async () => [] };
    const switching: ModelServer = {
      get usable() {
        return current.usable;
      },
      get name() {
        return current.name;
      },
      get address() {
        return current.address;
      },
      listModels: () => current.listModels(),
    };
    const models = new ServerModels(switching);
    expect(models.note()).toMatch(/no provider is set up.*\/connect/);
    current = first;
    expect(models.items()).toEqual([]);
    await eventually(() => expect(models.items().map((m) => m.insert)).toEqual(['first-model']));
    const second = await serverOf({ models: [{ id: 'second-model', object: 'model' }] });
    current = { ...second, name: 'other', address: 'http://elsewhere/v1', listModels: second.listModels };
    await eventually(() => expect(models.items().map((m) => m.insert)).toEqual(['second-model']));
  });
});
