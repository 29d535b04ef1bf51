import type { ApiKind } from '../core/provider/registry';
import type { CliArgs } from './args';
import type { Config } from './config';
import { ConfigError } from './config';

interface ProviderPreset {
  /** The API the server speaks; `openai-chat` unless given. */
  readonly api?: ApiKind;
  readonly baseUrl: string;
  readonly apiKeyEnv?: string;
  readonly model: string;
}

/** Built-in provider presets: the API, base URL, the variable holding the key, a default model. */
export const PROVIDER_PRESETS: Readonly<Record<string, ProviderPreset>> = {
  openai: { baseUrl: 'https://api.openai.com/v1', apiKeyEnv: 'OPENAI_API_KEY', model: 'gpt-4.1-mini' },
  openrouter: {
    baseUrl: 'https://openrouter.ai/api/v1',
    apiKeyEnv: 'OPENROUTER_API_KEY',
    model: 'openai/gpt-4.1-mini',
  },
  ollama: { api: 'ollama', baseUrl: 'http://127.0.0.1:11434', model: 'llama3.1' },
  vllm: { baseUrl: 'http://127.0.0.1:8000/v1', model: 'default' },
  llamacpp: { baseUrl: 'http://127.0.0.1:8080/v1', model: 'default' },
  lmstudio: { baseUrl: 'http://127.0.0.1:1234/v1', model: 'default' },
  gemini: {
    api: 'gemini',
    baseUrl: 'https://generativelanguage.googleapis.com/v1beta',
    apiKeyEnv: 'GEMINI_API_KEY',
    model: 'gemini-2.5-flash',
  },
  anthropic: {
    api: 'anthropic-messages',
    baseUrl: 'https://api.anthropic.com',
    apiKeyEnv: 'ANTHROPIC_API_KEY',
    model: 'claude-sonnet-4-5',
  },
};

export interface ProviderSettings {
  readonly name: string;
  /** The API the server speaks (the config's `"api"`, else the preset's). */
  readonly api: ApiKind;
  readonly baseUrl: string;
  readonly apiKey: string;
  /** The variable the provider's key is read from (its own, or OPENAI_API_KEY where that applies). */
  readonly apiKeyEnv: string | null;
  /** Why a key that is set was not given to this provider (said once at start), when it was not. */
  readonly keyWithheld?: string;
  readonly model: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly contextWindow?: number;
  /** True when nothing chose a provider: the defaults were used. */
  readonly defaulted: boolean;
}

/** Flags over environment over config files over presets. */
export function resolveProvider(
  args: CliArgs,
  config: Config,
  env: NodeJS.ProcessEnv,
  configFile: string,
): ProviderSettings {
  const name = config.provider ?? 'openai';
  const custom = config.providers?.[name];
  const preset = PROVIDER_PRESETS[name];
  if (!custom && !preset) {
    const known = [...Object.keys(PROVIDER_PRESETS), ...Object.keys(config.providers ?? {})].join(', ');
    throw new ConfigError(
      configFile,
      `config ${configFile}: field "provider": unknown provider "${name}" (known: ${known})`,
    );
  }
  const ownKeyEnv = custom?.apiKeyEnv ?? (custom ? null : (preset?.apiKeyEnv ?? null));
  const givenUrl = args.baseUrl ?? env['OPENAI_BASE_URL'] ?? config.baseUrl;
  const baseUrl = givenUrl ?? custom?.baseUrl ?? preset!.baseUrl;
  // A provider with a key variable of its own gets only that key. OPENAI_API_KEY goes to the
  // OpenAI preset, or to a base URL the user named (flag, their environment, their own config:
  // a project's baseUrl counts only once its folder is trusted); a local preset gets none.
  const apiKeyEnv = ownKeyEnv ?? (givenUrl !== undefined ? 'OPENAI_API_KEY' : null);
  const key = apiKeyEnv ? (env[apiKeyEnv] ?? '') : '';
  const plainRemote =
    key !== '' &&
    isPlainHttpRemote(baseUrl) &&
    !(custom?.keyOverHttp ?? (givenUrl !== undefined && config.keyOverHttp === true));
  const apiKey = plainRemote ? '' : key;
  return {
    name,
    api: custom?.api ?? preset?.api ?? 'openai-chat',
    baseUrl,
    apiKey,
    apiKeyEnv,
    ...(plainRemote
      ? {
          keyWithheld:
            `the key in ${apiKeyEnv} is not sent to ${baseUrl}: plain http to a host that is not this machine would show it to the network; ` +
            `use https, or set "keyOverHttp": true ${custom ? `for provider "${name}"` : 'beside "baseUrl"'} in your own config`,
        }
      : {}),
    model: args.model ?? config.model ?? custom?.model ?? preset?.model ?? 'default',
    headers: custom?.headers ?? {},
    ...(custom?.contextWindow ? { contextWindow: custom.contextWindow } : {}),
    defaulted: !args.baseUrl && !env['OPENAI_BASE_URL'] && !config.baseUrl && !config.provider,
  };
}

/** http:// to anything but this machine (loopback names and addresses). */
function isPlainHttpRemote(baseUrl: string): boolean {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:') return false;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return !(host === 'localhost' || host.endsWith('.localhost') || /^127\./.test(host) || host === '::1');
}

/** True when the provider needs a key that is not set (a local server needs none). */
export function missingKey(settings: ProviderSettings): boolean {
  // A withheld key is said at start; the server may need none (a LAN Ollama), so tole goes on.
  return (
    settings.apiKey === '' &&
    settings.keyWithheld === undefined &&
    !/^https?:\/\/(127\.|localhost|\[::1\])/.test(settings.baseUrl)
  );
}

/**
 * What to do when the server refuses the key (401/403), naming the variable the key came from,
 * or the one to set when none was sent.
 */
export function authHint(settings: ProviderSettings, env: NodeJS.ProcessEnv): string {
  // The same choice as resolveProvider's: the provider's variable, else OPENAI_API_KEY.
  const from =
    settings.apiKeyEnv && env[settings.apiKeyEnv] !== undefined
      ? settings.apiKeyEnv
      : env['OPENAI_API_KEY'] !== undefined
        ? 'OPENAI_API_KEY'
        : null;
  if (from === null || settings.apiKey === '')
    return `the server at ${settings.baseUrl} wants a key and none was sent: set ${settings.apiKeyEnv ?? 'OPENAI_API_KEY'}`;
  return `the server at ${settings.baseUrl} refused the key in ${from}: check that ${from} holds a valid key for this server`;
}

/** Every variable a provider key can come from: never given to the commands tole runs. */
export function providerKeyVars(config: Config): string[] {
  const fromPresets = Object.values(PROVIDER_PRESETS).map((preset) => preset.apiKeyEnv);
  const fromConfig = Object.values(config.providers ?? {}).map((provider) => provider.apiKeyEnv);
  return [...new Set([...fromPresets, ...fromConfig].filter((name): name is string => name !== undefined))];
}
