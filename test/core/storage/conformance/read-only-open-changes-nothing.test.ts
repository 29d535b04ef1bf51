import { existsSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { lockPathFor } from '../../../../src/core/storage/lock-file';
import { entryCommit, openStore, snapshot, tempDir } from '../../../support/storage-fixtures';
import { BACKENDS, createIn, diskState, skipUnavailable } from './backends';

const dir = tempDir();
afterAll(() => dir.remove());

describe.each(BACKENDS)('%s backend: a read-only open', (backend) => {
  if (skipUnavailable(backend)) return;

  it('takes no lock, sees every acknowledged commit while a writer is open, refuses to write, and changes nothing on disk', () => {
    const writer = createIn(dir.path, backend);
    writer.commit(entryCommit(writer, null, 'first'));
    const view = openStore(writer.path, { readOnly: true });
    expect(view.readOnly).toBe(true);
    expect(snapshot(view)).toEqual(snapshot(writer));
    view.close();

    writer.commit(entryCommit(writer, 'e_1', 'second'));
    const later = openStore(writer.path, { readOnly: true });
    expect(snapshot(later)).toEqual(snapshot(writer));
    expect(() => later.commit(entryCommit(later, 'e_2', 'from the view'))).toThrowError(
      expect.objectContaining({ kind: 'read-only' }),
    );
    later.close();
    writer.close();

    expect(existsSync(lockPathFor(writer.path))).toBe(false);
    const disk = diskState(writer.path);
    const reader = openStore(writer.path, { readOnly: true });
    expect(existsSync(lockPathFor(writer.path))).toBe(false);
    expect(reader.tree.size).toBe(2);
    reader.close();
    expect(diskState(writer.path)).toEqual(disk);
  });
});
