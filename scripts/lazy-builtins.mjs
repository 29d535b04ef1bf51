// Post-build step for dist/screen.cjs: Node builtins that only some later action uses are
// required on their first use instead of when the module importing them is evaluated (before
// the first frame). `node:worker_threads` (~5-10 ms to load: the worker machinery and its message
// ports) serves only the check of a resumed session's file (src/core/storage/verify-aside.ts);
// `node:readline` only the read_file tool. esbuild writes such an import as
// `var import_x = require("node:x");` and reads it only as `import_x.name` when the code runs;
// that variable becomes an object that requires the builtin when a name is first read. The build
// fails if an import is written any other way, so nothing reads it early by accident.

/** Builtins loaded on first use in the screen script. */
export const LAZY_BUILTINS = ['node:worker_threads', 'node:readline'];

const HELPER = `var __toleLazyBuiltin = (id) => {
  let loaded;
  return new Proxy({}, { get: (_, name) => (loaded ??= require(id))[name] });
};
`;

/** `script` with each of LAZY_BUILTINS required on first use; throws when one is imported otherwise. */
export function lazyBuiltins(script) {
  let out = script;
  for (const id of LAZY_BUILTINS) {
    const quoted = JSON.stringify(id);
    const declarations = [
      ...out.matchAll(new RegExp(`^(\\s*)var (\\w+) = require\\(${escapeRegExp(quoted)}\\);$`, 'gm')),
    ];
    const requires = out.split(`require(${quoted})`).length - 1;
    if (declarations.length === 0 || declarations.length !== requires)
      throw new Error(
        `lazy-builtins: ${id} is not imported as \`var x = require(${quoted});\` alone in dist/screen.cjs`,
      );
    for (const [, , name] of declarations) {
      const uses = out.split(new RegExp(`\\b${name}\\b`)).length - 1;
      const reads = out.split(new RegExp(`\\b${name}\\.\\w`)).length - 1;
      if (uses !== reads + 1)
        throw new Error(`lazy-builtins: ${name} (${id}) is used other than by reading a name from it`);
    }
    out = out.replace(
      new RegExp(`^(\\s*)var (\\w+) = require\\(${escapeRegExp(quoted)}\\);$`, 'gm'),
      (_, indent, name) => `${indent}var ${name} = __toleLazyBuiltin(${quoted});`,
    );
  }
  const first = out.search(/^\/\/ (node_modules|src)\//m);
  if (first === -1) throw new Error('lazy-builtins: no bundled module in dist/screen.cjs');
  return out.slice(0, first) + HELPER + out.slice(first);
}

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
