/**
 * Ink decides once, when it loads, whether it runs "in CI" (`CI` or `CONTINUOUS_INTEGRATION`
 * set), and then draws no frames until exit: a full-screen session in a shell that happens to
 * export `CI=true` (many dev containers do) would show nothing. This module is imported before
 * Ink and hides those two variables while Ink loads; `ci-env-restore` puts them back right
 * after, so the tools the agent runs still see the environment as it was.
 */
export const hiddenCiEnv: Record<string, string> = {};

for (const key of ['CI', 'CONTINUOUS_INTEGRATION']) {
  const value = process.env[key];
  if (value !== undefined) {
    hiddenCiEnv[key] = value;
    delete process.env[key];
  }
}
