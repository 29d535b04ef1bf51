/**
 * ReadOnly calls that run side by side show on screen together: one "running" line each in the
 * transcript's live tail, the count in the usage pane, and every pending intent in the registers
 * pane. A call that ends early stays shown until it is settled in its place (the calls' order).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { Tool } from '../../src/core/tools/tool';
import { realAgent } from './agent-fixture';
import { pane, renderScreen, stripAnsi, type Screen, KEYS } from './harness';
import { emptyStore } from './session-fixture';

let screen: Screen | undefined;
afterEach(() => screen?.unmount());

/** A ReadOnly tool whose call for a key ends when the test releases that key. */
function heldRead(): { tool: Tool<{ key: string }>; release: (key: string) => void; started: string[] } {
  const releases = new Map<string, () => void>();
  const held = new Map<string, Promise<void>>();
  const gate = (key: string): Promise<void> => {
    let promise = held.get(key);
    if (!promise) {
      promise = new Promise<void>((resolve) => releases.set(key, resolve));
      held.set(key, promise);
    }
    return promise;
  };
  const started: string[] = [];
  const tool: Tool<{ key: string }> = {
    name: 'held_read',
    description: 'Reads a key once the test lets it (test tool).',
    inputSchema: z.strictObject({ key: z.string() }),
    replay: 'idempotent',
    tier: 'cold',
    declaredRisk: 'ReadOnly',
    assess: () => ({ risk: 'ReadOnly', reason: 'reads a key' }),
    subject: (input) => `key-${input.key}`,
    execute: async (input) => {
      started.push(input.key);
      await gate(input.key);
      return { ok: true, content: `read ${input.key}` };
    },
  };
  return {
    tool,
    started,
    release: (key) => {
      gate(key);
      releases.get(key)!();
    },
  };
}

const runningRows = (frame: string): string[] =>
  stripAnsi(frame)
    .split('\n')
    .flatMap((line) => {
      const found = /⏵ running (\S+(?: key-\w+)?) \d/.exec(line);
      return found ? [found[1]!] : [];
    });

describe('ReadOnly calls running side by side on screen', () => {
  it('shows each call in flight, and drops each once it is settled in order', async () => {
    const store = emptyStore();
    const held = heldRead();
    const call = (key: string) => ({ id: `call_${key}`, name: 'held_read', arguments: JSON.stringify({ key }) });
    const fixture = realAgent(store, [{ toolCalls: [call('a'), call('b'), call('c')] }, { chunks: ['all read'] }], {
      extraTools: [held.tool],
    });
    screen = renderScreen({ store, agent: fixture.agent, approvals: fixture.approvals, columns: 160, rows: 44 });
    await screen.type('read three keys');
    await screen.press(KEYS.enter);
    await vi.waitFor(() => expect(held.started).toEqual(['a', 'b', 'c']));

    let frame = await screen.waitFor('running 3 tools');
    expect(runningRows(frame)).toEqual(['held_read key-a', 'held_read key-b', 'held_read key-c']);
    expect(stripAnsi(frame)).toContain('Esc stops them');
    const registers = pane(frame, 'registers');
    expect(registers).toContain('Executing');
    for (const key of ['a', 'b', 'c']) {
      expect(registers).toContain(`held_read key-${key} ReadOnly`);
      expect(registers).toContain(`held_read executing call_${key}`);
    }

    // b ends first: it waits for a's settlement, so all three still show. What b's end sets off
    // without waiting on anything outside has run once the event loop turns.
    held.release('b');
    await new Promise((resolve) => setImmediate(resolve));
    expect(runningRows(screen.frame())).toEqual(['held_read key-a', 'held_read key-b', 'held_read key-c']);

    // a ends: a and then b are settled; c alone is left. No frame on the way showed b gone while a still ran.
    held.release('a');
    await vi.waitFor(() => expect(runningRows(screen!.frame())).toEqual(['held_read']));
    const shown = screen.frames().map(runningRows);
    expect(shown).not.toContainEqual(['held_read key-a', 'held_read key-c']);
    frame = await screen.waitFor('running held_read');
    expect(stripAnsi(frame)).toContain('Esc stops it');

    held.release('c');
    await screen.waitFor('all read');
    expect(runningRows(screen.frame())).toEqual([]);
  });
});
