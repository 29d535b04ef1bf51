// The screen's build-time patches (esbuild plugins, scripts/build.mjs) run in vitest too: this
// makes one Vite plugin of them, so the screen tests (vitest.config.ts) mount the output stage and
// the patched libraries that dist/screen.cjs ships instead of stock Ink. It takes what those
// plugins use of esbuild's plugin API: onResolve and onLoad with a filter and a namespace, results
// with path, namespace, contents, resolveDir and errors, and onEnd. A plugin's onEnd checks
// (a hook or line that was not found) run when vitest closes, and fail the run as they fail a build.
import { dirname, join } from 'node:path';

/** Where a module of a plugin's own namespace seems to live, so that its relative imports resolve. */
const VIRTUAL = '\0tole-esbuild:';

export function esbuildPluginsInVite(plugins) {
  const resolvers = [];
  const loaders = [];
  const ends = [];
  for (const plugin of plugins) {
    plugin.setup({
      onResolve: (options, callback) => resolvers.push({ plugin: plugin.name, ...options, callback }),
      onLoad: (options, callback) => loaders.push({ plugin: plugin.name, ...options, callback }),
      onEnd: (callback) => ends.push({ plugin: plugin.name, callback }),
      resolve: () => {
        throw new Error(`${plugin.name}: build.resolve is not available under vitest`);
      },
    });
  }
  /** namespace:path → the module's id, and back. */
  const virtualIds = new Map();

  return {
    name: 'tole-esbuild-plugins',
    enforce: 'pre',
    async resolveId(source, importer) {
      if (importer === undefined) return null;
      const from = importer.startsWith(VIRTUAL) ? (virtualIds.get(importer)?.importer ?? importer) : importer;
      for (const resolver of resolvers) {
        if ((resolver.namespace ?? 'file') !== 'file' || !resolver.filter.test(source)) continue;
        const result = await resolver.callback({
          path: source,
          importer: from,
          namespace: 'file',
          kind: 'import-statement',
          resolveDir: dirname(from),
        });
        if (result === undefined || result === null) continue;
        failOn(resolver.plugin, result);
        if ((result.namespace ?? 'file') === 'file') return result.path;
        const id = `${VIRTUAL}${result.namespace}:${result.path}`;
        virtualIds.set(id, { namespace: result.namespace, path: result.path, importer: from });
        return id;
      }
      // A plugin's own module imports relative to its resolveDir.
      if (from !== importer) return this.resolve(source, from, { skipSelf: true });
      return null;
    },
    async load(id) {
      const virtual = virtualIds.get(id);
      const namespace = virtual?.namespace ?? 'file';
      const path = virtual?.path ?? id.split('?')[0];
      for (const loader of loaders) {
        if ((loader.namespace ?? 'file') !== namespace || !loader.filter.test(path)) continue;
        const result = await loader.callback({ path, namespace });
        if (result === undefined || result === null) continue;
        failOn(loader.plugin, result);
        // A module of the plugin's own that imports relative paths: they resolve from its resolveDir.
        if (virtual !== undefined && result.resolveDir !== undefined)
          virtual.importer = join(result.resolveDir, `${virtual.namespace}.js`);
        return { code: result.contents, map: null };
      }
      return null;
    },
    async buildEnd() {
      for (const end of ends) {
        const result = { errors: [], warnings: [] };
        const returned = await end.callback(result);
        failOn(end.plugin, { errors: [...result.errors, ...(returned?.errors ?? [])] });
      }
    },
  };
}

function failOn(plugin, result) {
  if (result.errors !== undefined && result.errors.length > 0)
    throw new Error(`${plugin}: ${result.errors.map((error) => error.text).join('; ')}`);
}
