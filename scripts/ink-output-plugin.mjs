// esbuild plugin: Ink's renderer gets src/tui/frame/ink-output.ts in place of Ink's own output.js, a
// drop-in that makes the same frames and keeps what it derived from unchanged rows across frames.
// The build fails if Ink's renderer no longer imports './output.js' (an Ink upgrade moved it).
// It also checks that Ink still draws through the root node's hooks src/tui/frame/PacedFrames.tsx swaps
// (the reconciler calls rootNode.onRender after a commit; onImmediateRender is the draw itself).
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const replacement = fileURLToPath(new URL('../src/tui/frame/ink-output.ts', import.meta.url));
// Ink measures every text node with `widest-line` on every frame; tole's is the same measure, remembered.
const widestLine = fileURLToPath(new URL('../src/tui/text/text-width.ts', import.meta.url));
// Ink remembers every text it measured in a map that never lets go; tole's keeps a bounded few.
const measureText = fileURLToPath(new URL('../src/tui/frame/ink-measure-text.ts', import.meta.url));
// Ink sanitizes each text node's whole text by tokenizing it, several times a frame; tole's returns
// text whose only escapes are colour codes as it is, and hands the rest to Ink's.
const sanitizeAnsi = fileURLToPath(new URL('../src/tui/frame/ink-sanitize-ansi.ts', import.meta.url));
const inkBuild = /[\\/]ink[\\/]build[\\/][\w-]+\.js$/;
// Ink marks a text node dirty for Yoga at every change of its text, so a streamed frame lays the
// whole screen out again; tole's marks it only when its size changed (src/tui/frame/ink-text-dirty.ts).
const textDirty = fileURLToPath(new URL('../src/tui/frame/ink-text-dirty.ts', import.meta.url));
// Ink walks the whole tree every frame; tole's walk is replayed from the last frame's, with the
// writes of the text nodes that changed made again, while nothing else changed
// (src/tui/frame/ink-kept-walk.ts): dom.js notes each change, render-node-to-output.js is wrapped.
const keptWalk = fileURLToPath(new URL('../src/tui/frame/ink-kept-walk.ts', import.meta.url));
const INK_TEXT_WRITE = `        if (node.nodeName === 'ink-text') {
            let text = squashTextNodes(node);
            if (text.length > 0) {
                const currentWidth = widestLine(text);
                const maxWidth = getMaxWidth(yogaNode);
                if (currentWidth > maxWidth) {
                    const textWrap = node.style.textWrap ?? 'wrap';
                    text = wrapText(text, maxWidth, textWrap);
                }
                text = applyPaddingToText(node, text);
                output.write(x, y, text, { transformers: newTransformers });
            }
            return;
        }
`;
/** The edits that put it in Ink: [file, text found exactly once, what it becomes]. */
const TEXT_DIRTY_EDITS = [
  [
    /[\\/]ink[\\/]build[\\/]dom\.js$/,
    "import squashTextNodes from './squash-text-nodes.js';\n",
    `import squashTextNodes from './squash-text-nodes.js';\nimport { noteTextChanged, measuredAt, markChangedTexts } from ${JSON.stringify(textDirty)};\nimport { noteChanged, noteStyle, noteLayout, noteWhole } from ${JSON.stringify(keptWalk)};\nconst toleLayout = Yoga.Node.prototype.calculateLayout;\nYoga.Node.prototype.calculateLayout = function (...args) {\n    markChangedTexts((node) => measureText(squashTextNodes(node)));\n    noteLayout(this.isDirty(), args);\n    return toleLayout.apply(this, args);\n};\n`,
  ],
  [
    /[\\/]ink[\\/]build[\\/]dom\.js$/,
    '    const yogaNode = findClosestYogaNode(node);\n    yogaNode?.markDirty();\n',
    '    noteTextChanged(node);\n    noteChanged(node);\n',
  ],
  // The walk reads a node's transform and static mark: set from the reconciler, they are noted here.
  [
    /[\\/]ink[\\/]build[\\/]dom\.js$/,
    '        internal_accessibility: {},\n    };\n',
    '        internal_accessibility: {},\n        get internal_transform() { return this.toleTransform; },\n        set internal_transform(value) { if (value !== this.toleTransform) { this.toleTransform = value; noteChanged(this); } },\n        get internal_static() { return this.toleStatic; },\n        set internal_static(value) { if (value !== this.toleStatic) { this.toleStatic = value; noteWhole(); } },\n    };\n',
  ],
  [
    /[\\/]ink[\\/]build[\\/]dom\.js$/,
    'export const appendChildNode = (node, childNode) => {\n',
    'export const appendChildNode = (node, childNode) => {\n    noteChanged(node);\n',
  ],
  [
    /[\\/]ink[\\/]build[\\/]dom\.js$/,
    'export const insertBeforeNode = (node, newChildNode, beforeChildNode) => {\n',
    'export const insertBeforeNode = (node, newChildNode, beforeChildNode) => {\n    noteChanged(node);\n',
  ],
  [
    /[\\/]ink[\\/]build[\\/]dom\.js$/,
    'export const removeChildNode = (node, removeNode) => {\n',
    'export const removeChildNode = (node, removeNode) => {\n    noteChanged(node);\n',
  ],
  [
    /[\\/]ink[\\/]build[\\/]dom\.js$/,
    'export const setStyle = (node, style) => {\n',
    'export const setStyle = (node, style) => {\n    noteStyle(node, node.style, style);\n',
  ],
  [
    /[\\/]ink[\\/]build[\\/]render-node-to-output\.js$/,
    INK_TEXT_WRITE,
    `        if (node.nodeName === 'ink-text') {\n            writeText(output, node, x, y, transformers, newTransformers, toleTextOf(node, yogaNode));\n            return;\n        }\n`,
  ],
  [
    /[\\/]ink[\\/]build[\\/]render-node-to-output\.js$/,
    'export default renderNodeToOutput;\n',
    // Ink's text of a text node, as its walk made it above, for the walk and for a kept frame.
    `function toleTextOf(node, yogaNode = node.yogaNode) {
    let text = squashTextNodes(node);
    if (text.length > 0) {
        const currentWidth = widestLine(text);
        const maxWidth = getMaxWidth(yogaNode);
        if (currentWidth > maxWidth) {
            const textWrap = node.style.textWrap ?? 'wrap';
            text = wrapText(text, maxWidth, textWrap);
        }
        text = applyPaddingToText(node, text);
    }
    return text;
}
export default keptWalk(renderNodeToOutput, toleTextOf);
`,
  ],
  [
    /[\\/]ink[\\/]build[\\/]render-node-to-output\.js$/,
    "import renderBackground from './render-background.js';\n",
    `import renderBackground from './render-background.js';\nimport { keptWalk, writeText } from ${JSON.stringify(keptWalk)};\n`,
  ],
  [
    /[\\/]ink[\\/]build[\\/]dom\.js$/,
    '    const dimensions = measureText(text);\n',
    '    const dimensions = measureText(text);\n    measuredAt(node, dimensions.width <= width);\n',
  ],
];
/** What frame pacing needs to find in Ink's files, each once. */
const PACING_HOOKS = [
  [/[\\/]ink[\\/]build[\\/]ink\.js$/, 'this.rootNode.onRender = () => {'],
  [/[\\/]ink[\\/]build[\\/]ink\.js$/, 'this.rootNode.onImmediateRender = this.onRender;'],
  [/[\\/]ink[\\/]build[\\/]reconciler\.js$/, 'rootNode.onRender();'],
];

export const inkOutputPlugin = {
  name: 'ink-output',
  setup(build) {
    let swapped = false;
    const hooksSeen = new Set();
    build.onLoad(
      { filter: /[\\/]ink[\\/]build[\\/](?:ink|reconciler|dom|render-node-to-output)\.js$/ },
      async (args) => {
        let source = await readFile(args.path, 'utf8');
        let edited = false;
        for (const [file, from, to] of TEXT_DIRTY_EDITS) {
          if (!file.test(args.path)) continue;
          if (source.split(from).length !== 2)
            return {
              errors: [
                {
                  text: `ink-output: expected "${from.trim()}" once in ${args.path} (src/tui/frame/ink-text-dirty.ts)`,
                },
              ],
            };
          source = source.replace(from, () => to);
          edited = true;
        }
        for (const [file, line] of PACING_HOOKS) {
          if (!file.test(args.path)) continue;
          if (source.split(line).length !== 2)
            return {
              errors: [{ text: `ink-output: expected "${line}" once in ${args.path} (src/tui/frame/PacedFrames.tsx)` }],
            };
          hooksSeen.add(line);
        }
        return edited ? { contents: source, loader: 'js', resolveDir: dirname(args.path) } : undefined;
      },
    );
    build.onResolve({ filter: /^widest-line$/ }, (args) =>
      inkBuild.test(args.importer) ? { path: widestLine } : undefined,
    );
    build.onResolve({ filter: /^\.\/measure-text\.js$/ }, (args) =>
      inkBuild.test(args.importer) ? { path: measureText } : undefined,
    );
    build.onResolve({ filter: /^\.\/sanitize-ansi\.js$/ }, (args) =>
      /[\\/]ink[\\/]build[\\/]squash-text-nodes\.js$/.test(args.importer) ? { path: sanitizeAnsi } : undefined,
    );
    // Ink's React devtools bridge (and the WebSocket library under it, ~130 KB) loads only with
    // DEV=true, which tole never needs: an empty module in its place keeps it out of the bundle.
    build.onResolve({ filter: /^\.\/devtools\.js$/ }, (args) =>
      inkBuild.test(args.importer) ? { path: 'ink-devtools', namespace: 'tole-empty' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'tole-empty' }, () => ({ contents: 'export {};\n', loader: 'js' }));
    build.onResolve({ filter: /^\.\/output\.js$/ }, (args) => {
      if (!/[\\/]ink[\\/]build[\\/]renderer\.js$/.test(args.importer)) return undefined;
      swapped = true;
      return { path: replacement };
    });
    build.onEnd((result) => {
      if (result.errors.length === 0 && hooksSeen.size !== PACING_HOOKS.length) {
        return {
          errors: [{ text: "ink-output: Ink's ink.js or reconciler.js was not bundled; frame pacing unchecked" }],
        };
      }
      if (result.errors.length === 0 && !swapped) {
        return {
          errors: [
            {
              text: "ink-output: Ink's renderer.js no longer imports './output.js'; check src/tui/frame/ink-output.ts against the new Ink",
            },
          ],
        };
      }
      return undefined;
    });
  },
};
