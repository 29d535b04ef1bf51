// Post-build step for dist/screen.cjs: Node builtins that only some later action uses are
// required on their first use instead of when the module importing them is evaluated (before
// the first frame). `node:worker_threads` (~5-10 ms to load: the worker machinery and its message
// ports) serves only the check of a resumed session's file (src/core/storage/verify-aside.ts);
// `node:readline` only the read_file tool; `node:crypto` (~4-8 ms: some twenty internal modules)
// hashes for file tools, checkpoints and a project config's trust, none of which a new session's
// first frame needs. esbuild writes such an import as `var import_x = require("node:x");` (or,
// in a module it evaluates on first use, `var import_x, ...;` and `import_x = require("node:x");`
// in its init) and reads it only as `import_x.name` when the code runs; that variable becomes an
// object that requires the builtin when a name is first read. The build fails if an import is
// written any other way, so nothing reads it early by accident.

/** Builtins loaded on first use in the screen script. */
export const LAZY_BUILTINS = ['node:worker_threads', 'node:readline', 'node:crypto'];

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
    // `var x = require(id);` at the top level, or `x = require(id);` in an __esm init.
    const statement = new RegExp(`^(\\s*)(var )?(\\w+) = require\\(${escapeRegExp(quoted)}\\);$`, 'gm');
    const declarations = [...out.matchAll(statement)];
    const requires = out.split(`require(${quoted})`).length - 1;
    if (declarations.length === 0 || declarations.length !== requires)
      throw new Error(
        `lazy-builtins: ${id} is not imported as \`var x = require(${quoted});\` alone in dist/screen.cjs`,
      );
    for (const [, , declared, name] of declarations) {
      const uses = out.split(new RegExp(`\\b${name}\\b`)).length - 1;
      const reads = out.split(new RegExp(`\\b${name}\\.\\w`)).length - 1;
      // Besides the reads: the statement, and for an assignment the `var` list that declares it.
      const listed = declared ? 0 : out.split(new RegExp(`^var (?:\\w+, )*${name}(?:, \\w+)*;$`, 'm')).length - 1;
      if (!declared && listed !== 1)
        throw new Error(`lazy-builtins: ${name} (${id}) is not declared once in a \`var\` list of its own module`);
      if (uses !== reads + 1 + listed)
        throw new Error(`lazy-builtins: ${name} (${id}) is used other than by reading a name from it`);
    }
    out = out.replace(
      statement,
      (_, indent, declared, name) => `${indent}${declared ?? ''}${name} = __toleLazyBuiltin(${quoted});`,
    );
  }
  const first = out.search(/^\/\/ (node_modules|src)\//m);
  if (first === -1) throw new Error('lazy-builtins: no bundled module in dist/screen.cjs');
  return out.slice(0, first) + HELPER + out.slice(first);
}

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
