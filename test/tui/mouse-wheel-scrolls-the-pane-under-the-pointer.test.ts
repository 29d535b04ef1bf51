import { describe, expect, it } from 'vitest';
import { screenLayout } from '../../src/tui/panes/layout';
import { mouseReport, paneAt } from '../../src/tui/input/mouse-wheel';

const layout = (columns: number, focus: 'input' | 'tree' = 'input') =>
  screenLayout({
    columns,
    rows: 40,
    focus,
    promptHeight: 1,
    approvalHeight: 0,
    flashHeight: 0,
    usageLines: 8,
  });

describe('the mouse wheel', () => {
  it('reads wheel notches (any modifier) from SGR reports, and tells clicks and drags apart', () => {
    expect(mouseReport('[<64;10;5M')).toEqual({ direction: -1, column: 10, row: 5 });
    expect(mouseReport('[<65;1;2M')).toEqual({ direction: 1, column: 1, row: 2 });
    // Ctrl (16) and Shift (4) with the wheel.
    expect(mouseReport('[<80;3;3M')).toEqual({ direction: -1, column: 3, row: 3 });
    expect(mouseReport('[<69;3;3M')).toEqual({ direction: 1, column: 3, row: 3 });
    expect(mouseReport('[<0;3;3M')).toBe('other');
    expect(mouseReport('[<0;3;3m')).toBe('other');
    expect(mouseReport('[<32;3;3M')).toBe('other');
    expect(mouseReport('[A')).toBeNull();
    expect(mouseReport('[<64;10M')).toBeNull();
  });

  it('finds the pane under the pointer as the panes are laid out; nothing below them', () => {
    const wide = layout(120);
    const tree = wide.tree!.width;
    const transcript = wide.transcript!.width;
    expect(paneAt(wide, 1, 1)).toBe('tree');
    expect(paneAt(wide, tree, 10)).toBe('tree');
    expect(paneAt(wide, tree + 1, 10)).toBe('transcript');
    expect(paneAt(wide, tree + transcript, 10)).toBe('transcript');
    expect(paneAt(wide, tree + transcript + 1, 1)).toBe('usage');
    expect(paneAt(wide, tree + transcript + 1, wide.usage!.height + 1)).toBe('registers');
    expect(paneAt(wide, 5, wide.panesHeight + 1)).toBeNull();
    const narrow = layout(60, 'tree');
    expect(paneAt(narrow, 30, 5)).toBe(narrow.single);
  });
});
