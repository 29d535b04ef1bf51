import { createContext } from 'react';

/**
 * Settles once the screen's frames reach the terminal. The first frame can be held back for a
 * few milliseconds (src/tui/frame/repeat-probe.ts: the terminal's answer to whether it repeats
 * characters), and work a hook starts "after the frame is drawn" must wait for it, or it runs
 * while the frame waits and the first frame pays for it (the prompt's estimate loads the provider's
 * client and zod). Settled from the start when nothing holds the frames (screen tests).
 */
export const FramesShown = createContext<Promise<void>>(Promise.resolve());
