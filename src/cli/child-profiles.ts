import type { ChildProfile } from '../core/session/sub-agents';
import { resolveProfile, type PromptContext } from './session-setup';

/**
 * A sub-agent's profile by name, as `--agent NAME` would start it (its prompt assembled, its
 * commands run): its tools, steps and model. A profile that names another provider still runs on
 * the parent's (one provider per process). A profile that is missing or broken throws with words
 * the model reads.
 */
export function childProfiles(prompts: PromptContext): (name: string, signal: AbortSignal) => Promise<ChildProfile> {
  return async (name, signal) => {
    const resolved = await resolveProfile(prompts, name, signal);
    const model = resolved.profile?.model;
    return { profile: resolved.active, ...(model === undefined ? {} : { model }) };
  };
}
