import { describe, expect, it } from 'vitest';
import type { Entry } from '../../src/core/tree/entry-types';
import { entryLines } from '../../src/tui/transcript/entry-lines';

const user = (payload: unknown): Entry<'user'> =>
  ({ kind: 'entry', seq: 1, timestamp: 0, id: 'e1', parentId: null, type: 'user', payload }) as Entry<'user'>;
const text = (entry: Entry<'user'>): string[] => entryLines(entry, 80).map((line) => line.map((s) => s.text).join(''));

describe('a prompt with attachments in the transcript', () => {
  it('shows each attached path with its size, a cut one saying so', () => {
    const lines = text(
      user({
        text: 'explain @a.ts',
        attachments: [
          { path: 'a.ts', kind: 'file', text: 'x', size: 1 },
          { path: 'big.log', kind: 'file', text: 'ab', size: 90000, cut: true },
          { path: 'src', kind: 'directory', text: 'a\nb', size: 2 },
        ],
      }),
    );
    expect(lines).toContain('  ⎘ attached a.ts  1 bytes');
    expect(lines).toContain('  ⎘ attached big.log  cut: the first 2 of 90000 bytes');
    expect(lines).toContain('  ⎘ attached src  directory, 2 names');
  });

  it('shows a hostile path as text, and a malformed field as a warning instead of failing', () => {
    const hostile = text(user({ text: 'x', attachments: [{ path: 'a\x1b[2Jb', kind: 'file', text: '', size: 0 }] }));
    expect(hostile.join('\n')).not.toContain('\x1b');
    const malformed = text(user({ text: 'x', attachments: 'nope' }));
    expect(malformed.join(' ')).toMatch(/user entry e1 has malformed attachments \(they are not a list\)/);
  });
});
