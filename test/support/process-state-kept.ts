/**
 * The process tier's setup for each file: its forks run file after file in one process
 * (vitest.config.ts), so a file must leave the process as it found it. Fails the file that changed
 * the working directory, process.env, the file tools' calls (setToolFs) or the listeners for
 * signals and uncaught errors, naming what it changed; such a file undoes it in an afterAll, or
 * goes to the process-isolated tier (test/support/tiers.ts).
 */
import { afterAll, beforeAll, expect } from 'vitest';
import { NODE_TOOL_FS, toolFs } from '../../src/core/tools/tool-fs';

const EVENTS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT', 'uncaughtException', 'unhandledRejection'] as const;

interface ProcessState {
  readonly cwd: string;
  readonly env: Record<string, string | undefined>;
  readonly nodeToolFs: boolean;
  readonly listeners: Record<string, number>;
}

/** What a file could leave behind; vitest's own VITEST_* variables change between the files of a fork. */
export function processState(): ProcessState {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST')));
  return {
    cwd: process.cwd(),
    env,
    nodeToolFs: toolFs() === NODE_TOOL_FS,
    listeners: Object.fromEntries(EVENTS.map((event) => [event, process.listenerCount(event)])),
  };
}

/** What differs between two states, in words (never an environment variable's value, which may be a secret). */
export function changesBetween(before: ProcessState, after: ProcessState): string[] {
  const changes: string[] = [];
  if (after.cwd !== before.cwd) changes.push(`the working directory changed from ${before.cwd} to ${after.cwd}`);
  for (const key of new Set([...Object.keys(before.env), ...Object.keys(after.env)])) {
    if (!(key in after.env)) changes.push(`process.env.${key} was removed`);
    else if (!(key in before.env)) changes.push(`process.env.${key} was set`);
    else if (after.env[key] !== before.env[key]) changes.push(`process.env.${key} was changed`);
  }
  if (after.nodeToolFs !== before.nodeToolFs) changes.push("the file tools' calls were replaced (setToolFs)");
  for (const event of EVENTS) {
    const was = before.listeners[event] ?? 0;
    const is = after.listeners[event] ?? 0;
    if (is !== was) changes.push(`process listeners for ${event} went from ${was} to ${is}`);
  }
  return changes;
}

let before: ProcessState | null = null;
beforeAll(() => {
  before = processState();
});
afterAll(() => {
  expect(
    changesBetween(before as ProcessState, processState()),
    'this file left the process changed for the next file of its fork: undo it in an afterAll, or move the file to the process-isolated tier (test/support/tiers.ts)',
  ).toEqual([]);
});
