// esbuild plugin: Yoga's Emscripten loader asks `typeof fetch` before it decodes its inlined
// WebAssembly, and on Node 20 touching the global fetch loads the whole HTTP client (undici)
// on every start (~1/3 of the time to tole's first frame in a profile) only to read a data: URL.
// The loader then decodes the same inlined bytes itself; the build fails if the check moved.
const yogaBinary = /[\\/]yoga-layout[\\/]dist[\\/]binaries[\\/]yoga-wasm-base64-esm\.js$/;

export const yogaNoFetchPlugin = {
  name: 'yoga-no-fetch',
  setup(build) {
    build.onLoad({ filter: yogaBinary }, async (args) => {
      const { readFile } = await import('node:fs/promises');
      const source = await readFile(args.path, 'utf8');
      const checks = source.split('"function"!=typeof fetch').length - 1;
      if (checks !== 2) {
        return {
          errors: [
            {
              text: `yoga-no-fetch: expected 2 fetch checks in Yoga's loader, found ${checks}; check it against the new Yoga`,
            },
          ],
        };
      }
      return { contents: source.replaceAll('"function"!=typeof fetch', 'true'), loader: 'js' };
    });
  },
};
