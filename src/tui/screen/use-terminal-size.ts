import { useStdout } from 'ink';
import { useEffect, useState } from 'react';

export interface TerminalSize {
  readonly columns: number;
  readonly rows: number;
}

function read(stdout: NodeJS.WriteStream): TerminalSize {
  return { columns: stdout.columns || 80, rows: stdout.rows || 24 };
}

/**
 * The terminal's size, updated on every resize: once for resizes that come together (a window
 * dragged sends several at once), when the event loop has read them all, so the screen lays out
 * and draws only the last size. Each update is a new object even when the size is the one before
 * (a window dragged back), so the screen is drawn again: the terminal may have cut it meanwhile.
 */
export function useTerminalSize(): TerminalSize {
  const { stdout } = useStdout();
  const [size, setSize] = useState(() => read(stdout));
  useEffect(() => {
    let queued: NodeJS.Immediate | null = null;
    const update = (): void => {
      queued = null;
      setSize(read(stdout));
    };
    const onResize = (): void => {
      queued ??= setImmediate(update);
    };
    stdout.on('resize', onResize);
    // A resize between the first frame and this effect.
    setSize((before) => {
      const now = read(stdout);
      return now.columns === before.columns && now.rows === before.rows ? before : now;
    });
    return () => {
      stdout.off('resize', onResize);
      if (queued !== null) clearImmediate(queued);
    };
  }, [stdout]);
  return size;
}
