import type { ChildProfile } from '../core/session/sub-agents';
import type { ProfileProvider } from './child-providers';
import { resolveProfile, type PromptContext } from './session-setup';

/**
 * A sub-agent's profile by name, as `--agent NAME` would start it (its prompt assembled, its
 * commands run): its tools, steps and model, and the provider it names (`childProviders`), on
 * which the child runs in place of the session's. A profile that names a provider and no model
 * runs that provider's model. A profile that is missing or broken, or whose provider cannot be
 * used, throws with words the model reads.
 */
export function childProfiles(
  prompts: PromptContext,
  providerOf: (name: string, file: string) => ProfileProvider,
): (name: string, signal: AbortSignal) => Promise<ChildProfile> {
  return async (name, signal) => {
    const resolved = await resolveProfile(prompts, name, signal);
    const named = resolved.profile?.provider;
    if (named === undefined) {
      const model = resolved.profile?.model;
      return { profile: resolved.active, ...(model === undefined ? {} : { model }) };
    }
    const { model, ...provider } = providerOf(named, resolved.file?.file ?? prompts.configFile);
    return { profile: resolved.active, model: resolved.profile?.model ?? model, provider };
  };
}
