// Preload for the built tole (`node --import <this> dist/tole.js`): when the first whole frame is
// written, writes to the file named by MODULES_PROBE_FILE the builtin modules loaded so far
// (`process.moduleLoadList`, one a line) and the scripts of tole's build compiled so far
// (`script <path>`, seen through `vm.Script`) and how many `Intl.Segmenter`s were made (`segmenters
// <n>`: the first loads ICU's break rules); at exit, the same again after a line `exit`.
import { writeFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import vm from 'node:vm';

const scripts = [];
const Script = vm.Script;
vm.Script = class extends Script {
  constructor(source, options) {
    super(source, options);
    if (typeof options?.filename === 'string') scripts.push(options.filename);
  }
};
// tole's loader imports `Script` by name: its ES module view of node:vm follows the change.
syncBuiltinESMExports();
let segmenters = 0;
Intl.Segmenter = new Proxy(Intl.Segmenter, {
  construct(target, args, newTarget) {
    segmenters++;
    return Reflect.construct(target, args, newTarget);
  },
});
const report = () =>
  [...process.moduleLoadList, ...scripts.map((file) => `script ${file}`), `segmenters ${segmenters}`].join('\n');
const file = process.env.MODULES_PROBE_FILE;
const write = process.stdout.write.bind(process.stdout);
let atFrame = null;
// The file is written before the frame goes out: a test that reads it once it sees the frame must
// not find it missing.
process.stdout.write = (chunk, ...rest) => {
  if (atFrame === null) {
    const text = String(chunk);
    if (text.includes('seq ') && text.includes('\x1b[?2026l')) {
      atFrame = report();
      writeFileSync(file, `${atFrame}\n`);
    }
  }
  return write(chunk, ...rest);
};
process.on('exit', () => writeFileSync(file, `${atFrame ?? ''}\nexit\n${report()}\n`));
