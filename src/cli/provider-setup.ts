import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Random } from '../core/clock';
import type { SwitchableProvider } from '../core/provider/switchable-provider';
import type { LocalServer, LookedFor, ProviderSetup, SetupHint } from '../tui/dialogs/provider-setup';
import { userConfigPath, type Config } from './config';
import { LOCAL_SERVERS, probeLocalServers } from './probe-local';
import { missingKey, PROVIDER_PRESETS, type ProviderSettings } from './settings';
import { buildProvider } from './wiring';

interface ProviderSetupParts {
  readonly settings: ProviderSettings;
  readonly config: Config;
  /** The config files that were read. */
  readonly files: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  /** The provider the Agent holds: `use` switches it. */
  readonly provider: SwitchableProvider;
  readonly random: Random;
  /** Where to look for local servers, and on which ports (tests point these at their own server). */
  readonly probeHost?: string;
  readonly servers?: typeof LOCAL_SERVERS;
  /** Per port (PROBE_TIMEOUT_MS unless told: tests on a loaded machine give their server longer). */
  readonly probeTimeoutMs?: number;
}

/** `./tole.config.json` in the working directory, `~/...` under home, else the path. */
function shortPath(path: string, env: NodeJS.ProcessEnv, cwd: string): string {
  const home = env['HOME'] || homedir();
  if (path.startsWith(`${cwd}/`)) return `./${path.slice(cwd.length + 1)}`;
  return home && path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
}

/** The places a provider could have come from, each with what was there. */
export function lookedFor(
  parts: Pick<ProviderSetupParts, 'settings' | 'config' | 'files' | 'env' | 'cwd'>,
): LookedFor[] {
  const { settings, config, files, env, cwd } = parts;
  const keyVars = [...new Set([settings.apiKeyEnv ?? 'OPENAI_API_KEY', 'OPENAI_API_KEY'])];
  const out: LookedFor[] = keyVars.map((name) => ({ what: name, found: env[name] ? 'set' : 'not set' }));
  const baseUrlGiven = !settings.defaulted && settings.baseUrl !== undefined;
  out.push({
    what: '--base-url, OPENAI_BASE_URL',
    found: baseUrlGiven ? `${settings.baseUrl} (needs a key)` : 'not given',
  });
  const user = userConfigPath(env);
  const project = files.find((f) => f !== user) ?? join(cwd, 'tole.config.json');
  for (const file of [user, project]) {
    const read = files.includes(file);
    out.push({
      what: shortPath(file, env, cwd),
      found: !read
        ? 'not there'
        : config.provider
          ? `provider "${config.provider}" (no key for it)`
          : 'names no provider',
    });
  }
  return out;
}

/** Ways to set a provider up from here. */
function setupHints(settings: ProviderSettings): SetupHint[] {
  const keyVar = settings.apiKeyEnv ?? 'OPENAI_API_KEY';
  const first: SetupHint =
    keyVar === 'OPENAI_API_KEY'
      ? { text: 'export OPENAI_API_KEY=sk-...', note: 'OpenAI' }
      : { text: `export ${keyVar}=...`, note: `for provider "${settings.name}"` };
  return [
    first,
    {
      text: 'tole --base-url http://127.0.0.1:11434/v1 --model llama3.1',
      note: 'any OpenAI-compatible server (Ollama, llama.cpp, LM Studio, vLLM)',
    },
    {
      text: '{ "provider": "openrouter" } in tole.config.json',
      note: 'with OPENROUTER_API_KEY; also gemini, anthropic',
    },
  ];
}

/** The first-run panel's host side: what was looked for, the probe, and the switch to a local server. */
export function providerSetup(parts: ProviderSetupParts): ProviderSetup {
  const host = parts.probeHost ?? '127.0.0.1';
  const servers = parts.servers ?? LOCAL_SERVERS;
  const missing = missingKey(parts.settings);
  return {
    missing,
    lookedFor: missing ? lookedFor(parts) : [],
    howTo: setupHints(parts.settings),
    probeHost: host,
    async probe(): Promise<LocalServer[]> {
      const found = await probeLocalServers(host, servers, parts.probeTimeoutMs);
      return servers.map((server) => {
        const hit = found.find((f) => f.preset === server.preset && f.baseUrl === `http://${host}:${server.port}/v1`);
        return { name: server.name, baseUrl: `http://${host}:${server.port}/v1`, models: hit ? hit.models : null };
      });
    },
    use(server: LocalServer, model: string): void {
      const preset = servers.find((s) => s.name === server.name)?.preset ?? 'local';
      const settings: ProviderSettings = {
        ...parts.settings,
        name: preset,
        // The server's own API where tole speaks it (Ollama's /api/chat, which takes num_ctx).
        api: PROVIDER_PRESETS[preset]?.api ?? 'openai-chat',
        baseUrl: server.baseUrl,
        apiKey: '',
        apiKeyEnv: null,
        model,
        headers: {},
        defaulted: false,
      };
      parts.provider.use(buildProvider(settings, parts.config, parts.random), server.name, server.baseUrl);
    },
  };
}
