// esbuild plugin: string-width builds `/^\p{RGI_Emoji}$/v` when it is loaded, a pattern V8 takes
// ~10 ms (more on a busy machine) to build, on every start, although a frame of tole's usual text
// never needs it (src/tui/simple-width.ts measures it without). Here the pattern is built on its
// first use instead; string-width's answers are unchanged. The build fails if the line moved.
import { readFile } from 'node:fs/promises';

const stringWidthIndex = /[\\/]node_modules[\\/]string-width[\\/]index\.js$/;
const EAGER = 'const rgiEmojiRegex = /^\\p{RGI_Emoji}$/v;';
const LAZY =
  'let rgiEmojiPattern;\nconst rgiEmojiRegex = { test: (text) => (rgiEmojiPattern ??= /^\\p{RGI_Emoji}$/v).test(text) };';

export const stringWidthLazyPlugin = {
  name: 'string-width-lazy',
  setup(build) {
    let patched = false;
    build.onLoad({ filter: stringWidthIndex }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      // Older copies (under other packages) build no such pattern; the one Ink and tole use does.
      if (!source.includes(EAGER)) return undefined;
      patched = true;
      return { contents: source.replace(EAGER, LAZY), loader: 'js' };
    });
    build.onEnd((result) => {
      if (result.errors.length === 0 && !patched)
        result.errors.push({ text: 'string-width-lazy: no string-width with the RGI_Emoji pattern was bundled' });
    });
  },
};
