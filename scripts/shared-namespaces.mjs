// Post-build step for dist/screen.cjs. esbuild gives each bundled ES module that imports a
// CommonJS module (React, its JSX runtime, Node's builtins) its own namespace object, made by
// `__toESM(require_x(), 1)`: a fresh object with a getter for every export. tole's session has
// 59 modules importing React and 25 the JSX runtime, so the script made ~3,500 such getters at
// each start, before the first frame, and kept them all (old space the first frame's GC must mark).
// Here `__toESM` makes one namespace per module (and mode) and hands the same one to every
// importer: a namespace is only read. Exports a module gained after its first import (a require
// cycle that returned it half-made) are still added at the next import, as before.

const MARK = 'var __toESM = ';

const SHARED = `
var __toESMEach = __toESM;
var __toESMMade = [new WeakMap(), new WeakMap()];
__toESM = (mod, isNodeMode) => {
  if (mod == null || (typeof mod !== "object" && typeof mod !== "function")) return __toESMEach(mod, isNodeMode);
  const made = __toESMMade[isNodeMode ? 1 : 0];
  let ns = made.get(mod);
  if (ns === undefined) made.set(mod, (ns = __toESMEach(mod, isNodeMode)));
  else __copyProps(ns, mod);
  return ns;
};
`;

/** `script` with `__toESM` sharing namespaces; throws when esbuild's helper is not where it was. */
export function shareInteropNamespaces(script) {
  const start = script.indexOf(MARK);
  if (start === -1 || script.indexOf(MARK, start + 1) !== -1)
    throw new Error('shared-namespaces: expected one `var __toESM = ` helper in dist/screen.cjs');
  const end = script.indexOf('\n));\n', start);
  if (end === -1 || !script.slice(0, start).includes('var __copyProps = '))
    throw new Error("shared-namespaces: esbuild's __toESM helper has changed shape");
  const after = end + '\n));\n'.length;
  return script.slice(0, after) + SHARED.trimStart() + script.slice(after);
}
