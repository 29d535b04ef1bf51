import { describe, expect, it } from 'vitest';
import {
  capClippedOutput,
  capOutput,
  formatBytes,
  formatCount,
  MODEL_OUTPUT_CAP_BYTES,
} from '../../../src/core/tools/cap-output';

const bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

function numberedLines(count: number): string {
  return Array.from({ length: count }, (_, i) => `line ${String(i + 1).padStart(7, '0')} ${'x'.repeat(20)}`).join('\n');
}

describe('capOutput', () => {
  it('caps at 32 KiB', () => {
    expect(MODEL_OUTPUT_CAP_BYTES).toBe(32 * 1024);
  });

  it('leaves text within the cap untouched', () => {
    const text = 'a'.repeat(MODEL_OUTPUT_CAP_BYTES);
    expect(capOutput(text)).toBe(text);
  });

  it('caps 1 MB of output at 32 KiB, keeping head and tail and marking what was elided', () => {
    const text = numberedLines(33_000); // 36 bytes a line: about 1.2 MB
    expect(bytes(text)).toBeGreaterThan(1_000_000);
    const capped = capOutput(text);
    expect(bytes(capped)).toBeLessThanOrEqual(MODEL_OUTPUT_CAP_BYTES);
    expect(bytes(capped)).toBeGreaterThan(MODEL_OUTPUT_CAP_BYTES - 2048);
    expect(capped.startsWith('line 0000001 ')).toBe(true);
    expect(capped.endsWith(`line 0033000 ${'x'.repeat(20)}`)).toBe(true);
    const marker = capped.match(/\n\[\.\.\. ([\d.]+ MB) elided: ([\d,]+) lines \.\.\.\]\n/);
    expect(marker).not.toBeNull();
    const keptLines = capped.split('\n').length - 1; // all but the marker line
    const elidedLines = Number(marker?.[2].replace(/,/g, ''));
    expect(keptLines + elidedLines).toBe(33_000);
    // Kept lines are whole lines.
    for (const line of capped.split('\n')) {
      if (!line.startsWith('[...')) expect(line).toMatch(/^line \d{7} x{20}$/);
    }
  });

  it('never splits a multi-byte character', () => {
    const text = '€🙂'.repeat(20_000);
    const capped = capOutput(text, 4096);
    expect(bytes(capped)).toBeLessThanOrEqual(4096);
    expect(capped).not.toContain('\uFFFD');
    expect(capped).toMatch(/^(€🙂)+€?\n\[\.\.\. .* elided: 0 lines \.\.\.\]\n€?🙂?(€🙂)+$/u);
  });

  it('says how much was dropped during capture as well as by the cap', () => {
    const head = Buffer.from('first\n'.repeat(10_000));
    const tail = Buffer.from('last\n'.repeat(10_000));
    const capped = capClippedOutput({ head, tail, elidedBytes: 5_000_000, elidedLines: 1_000_000 });
    const marker = capped.match(/\[\.\.\. ([\d.]+ MB) elided: ([\d,]+) lines \.\.\.\]/);
    expect(marker?.[1]).toBe('5.1 MB');
    const kept = capped.split('\n').filter((line) => line === 'first' || line === 'last').length;
    expect(Number(marker?.[2].replace(/,/g, ''))).toBe(1_000_000 + 20_000 - kept);
    expect(capped.startsWith('first\n')).toBe(true);
    expect(capped.endsWith('last\n')).toBe(true);
  });

  it('marks a gap from capture even when what is left fits', () => {
    const capped = capClippedOutput({
      head: Buffer.from('a\n'),
      tail: Buffer.from('z\n'),
      elidedBytes: 1500,
      elidedLines: 3,
    });
    expect(capped).toBe('a\n[... 1.5 KB elided: 3 lines ...]\nz\n');
  });

  it('formats sizes and counts for people', () => {
    expect(formatBytes(12)).toBe('12 bytes');
    expect(formatBytes(1_234_567)).toBe('1.2 MB');
    expect(formatCount(31_002)).toBe('31,002');
    expect(formatCount(999)).toBe('999');
  });
});
