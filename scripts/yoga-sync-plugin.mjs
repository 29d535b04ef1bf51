// esbuild plugin for the CommonJS script of the full-screen session (dist/screen.cjs): Yoga's
// entry waits for its WebAssembly with a top-level await, which a CommonJS script cannot hold.
// In its place a small module compiles the same inlined WebAssembly at once (WebAssembly.Module
// and Instance are synchronous; Yoga's Emscripten loader takes them through its instantiateWasm
// hook) and wraps it as Yoga's entry does. The build fails if the loader's shape moved.
// Its memory starts at 2 MiB instead of 16 (scripts/wasm-initial-memory.mjs says why).
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withInitialMemoryPages } from './wasm-initial-memory.mjs';

/** Yoga's memory as its module declares it, and as the screen's script starts it (64 KiB pages). */
export const YOGA_DECLARED_PAGES = 256;
export const YOGA_INITIAL_PAGES = 32;

/** The plugin, with Yoga's memory starting at `initialPages` (YOGA_DECLARED_PAGES: as Yoga declares it). */
export const yogaSyncPluginWith = (initialPages) => ({
  name: 'yoga-sync',
  setup(build) {
    // yoga-layout/dist/src/index.js: its entry.
    const dist = dirname(dirname(fileURLToPath(import.meta.resolve('yoga-layout'))));
    build.onResolve({ filter: /^yoga-layout$/ }, () => ({ path: 'yoga-layout', namespace: 'yoga-sync' }));
    build.onLoad({ filter: /.*/, namespace: 'yoga-sync' }, async () => {
      const loader = await readFile(join(dist, 'binaries', 'yoga-wasm-base64-esm.js'), 'utf8');
      const inlined = [...loader.matchAll(/"data:application\/octet-stream;base64,([A-Za-z0-9+/=]+)"/g)];
      const entry = await readFile(join(dist, 'src', 'index.js'), 'utf8');
      if (
        inlined.length !== 1 ||
        !loader.includes('if(h.instantiateWasm)try{return h.instantiateWasm(') ||
        !entry.includes('const Yoga = wrapAssembly(await loadYoga());')
      ) {
        return {
          errors: [
            {
              text: "yoga-sync: Yoga's loader or entry changed shape; check the synchronous load against the new Yoga",
            },
          ],
        };
      }
      let wasm;
      try {
        wasm = withInitialMemoryPages(Buffer.from(inlined[0][1], 'base64'), YOGA_DECLARED_PAGES, initialPages);
      } catch (error) {
        return { errors: [{ text: `yoga-sync: ${error.message}` }] };
      }
      return {
        resolveDir: join(dist, 'src'),
        loader: 'js',
        contents: `
import loadYoga from '../binaries/yoga-wasm-base64-esm.js';
import wrapAssembly from './wrapAssembly.js';
export * from './generated/YGEnums.js';
const binary = Buffer.from(${JSON.stringify(Buffer.from(wasm).toString('base64'))}, 'base64');
const yogaModule = {
  instantiateWasm(imports, receiveInstance) {
    const instance = new WebAssembly.Instance(new WebAssembly.Module(binary), imports);
    receiveInstance(instance);
    return instance.exports;
  },
};
loadYoga(yogaModule);
if (typeof yogaModule.Node !== 'function') throw new Error('yoga-sync: Yoga did not load at once');
const Yoga = wrapAssembly(yogaModule);
export default Yoga;
`,
      };
    });
  },
});

export const yogaSyncPlugin = yogaSyncPluginWith(YOGA_INITIAL_PAGES);
