// Preload for the built tole (`node --import <this> dist/tole.js`): appends to the file named by
// CODE_CACHE_PROBE_FILE, one a line, what tole does with its code cache, as it happens:
// - `loaded NAME none|accepted|rejected`: a script of tole's build (NAME its file name) compiled
//   with no cached code, or with cached code V8 took or refused (seen through `vm.Script`);
// - `saving NAME`: tole asked V8 for the script's code to write a cache (`createCachedData`);
// - `saved NAME`: the task that asked has ended, so its write (or failed write) is over.
// A test waits on these lines instead of waiting a fixed time for a write to happen or not.
import { appendFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { basename } from 'node:path';
import vm from 'node:vm';

const file = process.env.CODE_CACHE_PROBE_FILE;
const note = (line) => appendFileSync(file, `${line}\n`);

const Script = vm.Script;
vm.Script = class extends Script {
  #name;
  constructor(source, options) {
    super(source, options);
    this.#name = typeof options?.filename === 'string' ? basename(options.filename) : '(anonymous)';
    const given = options?.cachedData !== undefined;
    note(`loaded ${this.#name} ${!given ? 'none' : this.cachedDataRejected === true ? 'rejected' : 'accepted'}`);
  }
  createCachedData() {
    note(`saving ${this.#name}`);
    // tole writes the bytes in the same task as it asks for them: the next turn of the loop comes after the write.
    setImmediate(() => note(`saved ${this.#name}`));
    return super.createCachedData();
  }
};
// tole's loader imports `Script` by name: its ES module view of node:vm follows the change.
syncBuiltinESMExports();
