// esbuild plugin: string-width builds `/^\p{RGI_Emoji}$/v` when it is loaded, a pattern V8 takes
// ~10 ms (more on a busy machine) to build, on every start, although a frame of tole's usual text
// never needs it (src/tui/text/simple-width.ts measures it without). Here the pattern is built on its
// first use instead; string-width's answers are unchanged. The build fails if the line moved.
import { oneLinePatchPlugin } from './one-line-patch.mjs';

export const stringWidthLazyPlugin = oneLinePatchPlugin({
  name: 'string-width-lazy',
  filter: /[\\/]node_modules[\\/]string-width[\\/]index\.js$/,
  from: 'const rgiEmojiRegex = /^\\p{RGI_Emoji}$/v;',
  to: 'let rgiEmojiPattern;\nconst rgiEmojiRegex = { test: (text) => (rgiEmojiPattern ??= /^\\p{RGI_Emoji}$/v).test(text) };',
  // Older copies (under other packages) build no such pattern; the one Ink and tole use does.
  skipWithout: true,
  missing: 'no string-width with the RGI_Emoji pattern was bundled',
});
