import { afterEach, describe, expect, it } from 'vitest';
import { resumeHint } from '../../src/cli/resume-hint';
import { createStore, entryCommit, tempDir } from '../support/storage-fixtures';

describe('the line printed after the full screen ends', () => {
  const dirs: { remove(): void }[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) d.remove();
  });

  it('names the resume command with the session id once the session holds something', () => {
    const dir = tempDir();
    dirs.push(dir);
    const store = createStore(dir.path);
    store.commit(entryCommit(store, null, 'hello'));
    expect(resumeHint(store)).toBe(`to go back to this session: tole -r ${store.header.id}\n`);
    store.close();
  });

  it('says nothing for a session left unused (its file is removed) or none at all', () => {
    const dir = tempDir();
    dirs.push(dir);
    const store = createStore(dir.path);
    expect(resumeHint(store)).toBeNull();
    expect(resumeHint(undefined)).toBeNull();
    store.close();
  });
});
