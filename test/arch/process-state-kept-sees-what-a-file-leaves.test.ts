/**
 * The process tier's forks run file after file in one process; process-state-kept.ts fails a file
 * whose process state differs at its end from its start. What it compares must see each kind of
 * leftover, and not vitest's own variables, which change between the files of a fork.
 */
import { describe, expect, it } from 'vitest';
import { NODE_TOOL_FS, setToolFs } from '../../src/core/tools/tool-fs';
import { changesBetween, processState } from '../support/process-state-kept';
import { SYNC_TOOL_FS } from '../sim/sync-tool-fs';

describe('the process state a file must leave as it found it', () => {
  it('differs after an environment variable is set or removed, and is equal again once it is undone', () => {
    const before = processState();
    process.env.TOLE_STATE_KEPT_PROBE = 'secret value';
    try {
      expect(changesBetween(before, processState())).toEqual(['process.env.TOLE_STATE_KEPT_PROBE was set']);
    } finally {
      delete process.env.TOLE_STATE_KEPT_PROBE;
    }
    expect(processState()).toEqual(before);
    const home = process.env.HOME;
    delete process.env.HOME;
    try {
      expect(changesBetween(before, processState())).toEqual(['process.env.HOME was removed']);
    } finally {
      process.env.HOME = home;
    }
  });

  it('differs while the file tools use other calls, or a signal or uncaught error has a listener more', () => {
    const before = processState();
    setToolFs(SYNC_TOOL_FS);
    try {
      expect(changesBetween(before, processState())).toEqual(["the file tools' calls were replaced (setToolFs)"]);
    } finally {
      setToolFs(NODE_TOOL_FS);
    }
    for (const event of ['SIGTERM', 'SIGINT', 'uncaughtException'] as const) {
      const listener = (): void => {};
      process.on(event, listener);
      try {
        expect(changesBetween(before, processState())).toEqual([
          `process listeners for ${event} went from ${before.listeners[event]} to ${(before.listeners[event] ?? 0) + 1}`,
        ]);
      } finally {
        process.off(event, listener);
      }
    }
    expect(changesBetween(before, processState())).toEqual([]);
  });

  it("ignores vitest's own variables", () => {
    const before = processState();
    const id = process.env.VITEST_WORKER_ID;
    process.env.VITEST_WORKER_ID = `${id ?? ''}9`;
    try {
      expect(changesBetween(before, processState())).toEqual([]);
    } finally {
      if (id === undefined) delete process.env.VITEST_WORKER_ID;
      else process.env.VITEST_WORKER_ID = id;
    }
  });
});
