import type { Random } from '../core/clock';
import type { ChildProvider } from '../core/session/sub-agents';
import type { CliArgs } from './args';
import type { Config } from './config';
import { missingKey, resolveProvider } from './settings';
import { buildProvider } from './wiring';

/** A provider for children, and the model it runs when the profile names none. */
export interface ProfileProvider extends ChildProvider {
  readonly model: string;
}

export interface ChildProviderSetup {
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
    const settings = resolveProvider(setup.args, { ...setup.config, provider: name }, setup.env, file);
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
