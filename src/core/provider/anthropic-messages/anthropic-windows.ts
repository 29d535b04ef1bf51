/**
 * Context windows of Claude models. Anthropic's Models API (`GET /v1/models`) names models but
 * not their windows, so the documented one is used: 200k tokens for every Claude model
 * (https://docs.anthropic.com/en/docs/about-claude/models/overview; the 1M window of some
 * models needs a beta header tole does not send). Data, keyed by model-name prefix.
 */
import type { DiscoveredWindow } from '../context-window';

const WINDOWS: Readonly<Record<string, number>> = { 'claude-': 200_000 };

export function claudeWindow(model: string): DiscoveredWindow | null {
  const name = model.trim().toLowerCase();
  const prefix = Object.keys(WINDOWS)
    .filter((key) => name.startsWith(key))
    .sort((a, b) => b.length - a.length)[0];
  return prefix === undefined ? null : { tokens: WINDOWS[prefix]!, source: "Anthropic's docs" };
}
