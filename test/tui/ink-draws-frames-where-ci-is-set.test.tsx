/**
 * Ink in the screen tier draws each frame as it is rendered, as it does in tole's screen, even
 * where the environment says CI (as CI's own runs do): the tier's set-up loads Ink with CI hidden
 * (test/support/ink-as-shipped.ts). Loaded with CI set, Ink would write nothing until unmount.
 */
import { render, Text } from 'ink';
import { describe, expect, it } from 'vitest';
import { FakeStdin, FakeStdout } from './harness';

describe('Ink in screen tests', () => {
  it('writes the first frame before unmount, whatever CI says', () => {
    const stdout = new FakeStdout(40, 5);
    stdout.isTTY = true;
    const instance = render(<Text>first frame</Text>, {
      stdout: stdout as unknown as NodeJS.WriteStream,
      stdin: new FakeStdin() as unknown as NodeJS.ReadStream,
      exitOnCtrlC: false,
      patchConsole: false,
    });
    try {
      expect(stdout.frames.join('')).toContain('first frame');
    } finally {
      instance.unmount();
    }
  });
});
