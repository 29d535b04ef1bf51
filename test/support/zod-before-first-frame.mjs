// Preload for the built tole (`node --import <this> dist/tole.js`): counts the zod schemas built
// before the first whole frame is written, and writes `zod-schemas-before-first-frame N` to
// stderr then (or to the file named by ZOD_PROBE_FILE), with `zod-evaluated true|false`: whether
// zod's own modules ran (they set globalThis.__zod_globalConfig when evaluated). zod 4 sets up each schema by reading its `_zod` field before defining it on the
// instance; a getter on Object.prototype sees each of those reads (and is removed at the frame).
import { writeFileSync } from 'node:fs';

let built = 0;
Object.defineProperty(Object.prototype, '_zod', {
  configurable: true,
  get() {
    built++;
    return undefined;
  },
  set(value) {
    Object.defineProperty(this, '_zod', { value, writable: true, configurable: true, enumerable: true });
  },
});
const write = process.stdout.write.bind(process.stdout);
let reported = false;
process.stdout.write = (chunk, ...rest) => {
  const written = write(chunk, ...rest);
  const text = String(chunk);
  if (!reported && text.includes('seq ') && text.includes('\x1b[?2026l')) {
    reported = true;
    delete Object.prototype._zod;
    const line = `zod-schemas-before-first-frame ${built} zod-evaluated ${'__zod_globalConfig' in globalThis}\n`;
    if (process.env.ZOD_PROBE_FILE) writeFileSync(process.env.ZOD_PROBE_FILE, line);
    else process.stderr.write(`\n${line}`);
  }
  return written;
};
