// Build helper for dist/screen.cjs: the initial size of a WebAssembly module's own memory.
//
// Yoga's module declares a memory of 256 pages (16 MiB) to start with, of which it uses about
// 75 KB (its data and a 64 KB stack); the rest is room for its heap, which grows the memory on
// demand (its maximum is 32768 pages, and its Emscripten loader refreshes its views of the memory
// after each growth). V8 counts a memory's bytes as external memory, and external memory allocated
// since the last full collection counts toward the old generation's limit: those 16 MiB, with the
// ~7 MB the session's code and data take by then, reached the limit before the first frame, and
// V8 collected the whole heap at once (10-30 ms; incremental marking cannot start on so small a
// heap). Starting the memory at 2 MiB leaves the limit unreached; the memory grows as Yoga needs.

/** Reads an unsigned LEB128 number at `at`: its value and the offset after it. */
function readUleb(bytes, at) {
  let value = 0;
  let shift = 0;
  for (let i = at; ; i++) {
    if (i >= bytes.length || shift > 28) throw new Error('wasm-initial-memory: bad LEB128 number');
    const byte = bytes[i];
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if (byte < 0x80) return { value, next: i + 1 };
  }
}

/**
 * Where the module's memory section describes its first memory: how many memories it defines,
 * their first's flags (1: it has a maximum), and the offsets of its initial size (`min`, a LEB128
 * number from `minAt` to `minEnd`); null when the module defines no memory.
 */
function firstMemory(bytes) {
  if (bytes[0] !== 0x00 || bytes[1] !== 0x61 || bytes[2] !== 0x73 || bytes[3] !== 0x6d)
    throw new Error('wasm-initial-memory: not a WebAssembly module');
  for (let at = 8; at < bytes.length; ) {
    const id = bytes[at];
    const { value: size, next: body } = readUleb(bytes, at + 1);
    if (id === 5) {
      const count = readUleb(bytes, body);
      const flags = bytes[count.next];
      const minAt = count.next + 1;
      const min = readUleb(bytes, minAt);
      return { count: count.value, flags, min: min.value, minAt, minEnd: min.next };
    }
    at = body + size;
  }
  return null;
}

/**
 * A copy of the module `bytes` whose one memory starts with `pages` pages instead of
 * `expectedPages`; everything else (its maximum included) is unchanged. The new size is written
 * in the same number of bytes as the old (a padded LEB128 number, which the format allows), so no
 * section moves. Throws if the module does not define exactly one memory of `expectedPages` pages
 * with a maximum (the module changed: check the new one before starting it smaller).
 */
export function withInitialMemoryPages(bytes, expectedPages, pages) {
  const out = Uint8Array.from(bytes);
  const memory = firstMemory(out);
  if (memory === null) throw new Error('wasm-initial-memory: the module defines no memory');
  const { count, flags, min, minAt, minEnd } = memory;
  if (count !== 1 || flags !== 1 || min !== expectedPages)
    throw new Error(
      `wasm-initial-memory: expected one memory of ${expectedPages} pages with a maximum, found ${count} (flags ${flags}, ${min} pages)`,
    );
  const width = minEnd - minAt;
  if (pages >= 2 ** (7 * width)) throw new Error(`wasm-initial-memory: ${pages} pages do not fit in ${width} bytes`);
  for (let i = 0; i < width; i++) {
    const last = i === width - 1;
    out[minAt + i] = ((pages >>> (7 * i)) & 0x7f) | (last ? 0 : 0x80);
  }
  return out;
}

/** The initial and maximum pages of the module's first memory (for checks). */
export function memoryPagesOf(bytes) {
  const memory = firstMemory(bytes);
  if (memory === null) return null;
  return { initial: memory.min, maximum: memory.flags & 1 ? readUleb(bytes, memory.minEnd).value : null };
}
