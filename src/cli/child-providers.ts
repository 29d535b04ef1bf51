import type { Random } from '../core/clock';
import type { ChildProvider } from '../core/session/sub-agents';
import type { CliArgs } from './args';
import type { Config } from './config';
import { missingKey, type ProviderSettings, resolveProvider } from './settings';
import { buildProvider } from './wiring';

/** A provider for children, and the model it runs when the profile names none. */
export interface ProfileProvider extends ChildProvider {
  readonly model: string;
}

interface ChildProviderSetup {
  readonly args: CliArgs;
  readonly config: Config;
  readonly env: NodeJS.ProcessEnv;
  readonly random: Random;
}

/**
 * The provider an agent profile names, for its sub-agents: set up as `--agent NAME` would set it
 * up for a session (its base URL, its own key and no other, its API), once per provider name and
 * shared by every child that names it. `file` is the profile's, named in errors. Throws an Error
 * the model reads when the provider is unknown or its key is missing or withheld.
 */
export function childProviders(setup: ChildProviderSetup): (name: string, file: string) => ProfileProvider {
  const made = new Map<string, ProfileProvider>();
  return (name, file) => {
    const known = made.get(name);
    if (known) return known;
    const settings = childSettings(setup, name, file);
    if (settings.keyWithheld)
      throw new Error(`the agent profile ${file} names provider "${name}": ${settings.keyWithheld}`);
    if (missingKey(settings))
      throw new Error(
        `the agent profile ${file} names provider "${name}", which needs a key: set ${settings.apiKeyEnv ?? 'OPENAI_API_KEY'}`,
      );
    const window = setup.config.compaction?.contextWindow ?? settings.contextWindow;
    const provider: ProfileProvider = {
      provider: buildProvider(settings, setup.config, setup.random),
      model: settings.model,
      ...(window === undefined ? {} : { contextWindowTokens: window }),
    };
    made.set(name, provider);
    return provider;
  };
}

/**
 * The settings of the provider `name` as a profile's child gets them. The session's own choice
 * of base URL and model (--base-url, OPENAI_BASE_URL, the config's baseUrl and model, --model)
 * belongs to the session's provider: a child naming that provider keeps it (the key goes where
 * the session sends it), a child naming another leaves it out. Resolved with it, a profile naming
 * "anthropic" in a session with OPENAI_BASE_URL set sent the Anthropic key to that other server,
 * and ran the session's --model on a provider that may not have it.
 */
export function childSettings(
  setup: Pick<ChildProviderSetup, 'args' | 'config' | 'env'>,
  name: string,
  file: string,
): ProviderSettings {
  if (name === (setup.config.provider ?? 'openai'))
    return resolveProvider(setup.args, { ...setup.config, provider: name }, setup.env, file);
  const { baseUrl: _url, model: _model, ...args } = setup.args;
  const { baseUrl: _configUrl, model: _configModel, ...config } = setup.config;
  const { OPENAI_BASE_URL: _envUrl, ...env } = setup.env;
  return resolveProvider(args, { ...config, provider: name }, env, file);
}
