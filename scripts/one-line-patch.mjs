// esbuild plugins that change one line of a package's file as it is bundled (each plugin's own
// module says why). The build fails when the line is not where it was expected, so an upgrade
// that moves it is seen at once instead of shipping the package unchanged.
import { readFile } from 'node:fs/promises';

/**
 * A plugin `name` that replaces `from` with `to` in the files `filter` matches: a file must hold
 * `from` once (a file without it is bundled as it is when `skipWithout`), and the build fails
 * with `missing` when no file was changed.
 */
export function oneLinePatchPlugin({ name, filter, from, to, skipWithout = false, missing }) {
  return {
    name,
    setup(build) {
      let patched = false;
      build.onLoad({ filter }, async (args) => {
        const source = await readFile(args.path, 'utf8');
        const found = source.split(from).length - 1;
        if (found === 0 && skipWithout) return undefined;
        if (found !== 1) return { errors: [{ text: `${name}: expected "${from}" once in ${args.path}` }] };
        patched = true;
        return { contents: source.replace(from, () => to), loader: 'js' };
      });
      build.onEnd((result) => {
        if (result.errors.length === 0 && !patched) result.errors.push({ text: `${name}: ${missing}` });
      });
    },
  };
}
