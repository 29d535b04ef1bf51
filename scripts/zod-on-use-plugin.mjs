// esbuild plugin for the full-screen session's script: src/core/zod-on-use.ts gives tole's code
// zod when it builds a schema, and a session's first frame builds none. Here that module loads
// zod with require(), which esbuild turns into an init call on first use, so zod's own modules
// (some 4 MB of heap and several ms at each start) are evaluated only when a schema is built.
// The file required is the very one `import 'zod'` resolves to, so zod is bundled once. The build
// fails if the module was not found or something else still imports zod's value at load
// (test/cli/bundle-leaves-out-what-tole-never-runs.test.ts checks what the script evaluates).
import { dirname } from 'node:path';

const zodOnUse = /[\\/]src[\\/]core[\\/]zod-on-use\.ts$/;

export const zodOnUsePlugin = {
  name: 'zod-on-use',
  setup(build) {
    let replaced = false;
    build.onLoad({ filter: zodOnUse }, async (args) => {
      const resolved = await build.resolve('zod', { kind: 'import-statement', resolveDir: dirname(args.path) });
      if (resolved.errors.length > 0) return { errors: resolved.errors };
      replaced = true;
      return {
        // An arrow that only inits: test/support/bundle-graph.ts knows it runs on call, not at load.
        contents: `export const zodNow = () => require(${JSON.stringify(resolved.path)}).z;\n`,
        loader: 'js',
        resolveDir: dirname(args.path),
      };
    });
    build.onEnd((result) => {
      if (result.errors.length === 0 && !replaced)
        result.errors.push({ text: 'zod-on-use: src/core/zod-on-use.ts was not bundled' });
    });
  },
};
