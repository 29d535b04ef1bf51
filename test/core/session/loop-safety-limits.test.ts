import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { machineState } from '../../../src/core/machine/machine';
import type { ScriptedReply } from '../../support/chat-server';
import { startHarness, textOf, toolCall } from '../hooks/agent-harness';

/** A read of a file that does not exist: the call fails, with new arguments each round (no stall). */
function failingRound(n: number): ScriptedReply {
  return toolCall('read_file', { path: `missing-${n}.txt` });
}

const rounds = (count: number, make: (n: number) => ScriptedReply): ScriptedReply[] =>
  Array.from({ length: count }, (_, i) => make(i + 1));

describe('loop safety', () => {
  it('nudges after 5 failing tool rounds in a row (in the next request) and aborts after 10', async () => {
    const h = await startHarness({ replies: rounds(12, failingRound) });
    const result = await h.run('read the files');
    expect(result.outcome).toBe('limit');
    expect(result.text).toBe('stopped: 10 tool rounds in a row failed or were denied');
    const requests = h.chatRequests();
    expect(requests).toHaveLength(10);
    const nudge = 'The last 5 tool rounds all failed or were denied';
    expect(requests.slice(0, 5).some((r) => textOf(r).includes(nudge))).toBe(false);
    expect(textOf(requests[5]!)).toContain(nudge);
    expect(h.pathOf('tool_result')).toHaveLength(10);
    expect(machineState(h.store).pc).toBe('Final');
  });

  it('takes the failing-round limits from the limits object', async () => {
    const h = await startHarness({
      limits: { nudgeAfterFailingRounds: 2, abortAfterFailingRounds: 3 },
      replies: rounds(5, failingRound),
    });
    const result = await h.run('read the files');
    expect(result).toEqual({ outcome: 'limit', text: 'stopped: 3 tool rounds in a row failed or were denied' });
    const requests = h.chatRequests();
    expect(requests).toHaveLength(3);
    expect(textOf(requests[1]!)).not.toContain('The last 2 tool rounds all failed');
    expect(textOf(requests[2]!)).toContain('The last 2 tool rounds all failed');
  });

  it('a round that works resets the failure count', async () => {
    const h = await startHarness({
      limits: { nudgeAfterFailingRounds: 2, abortAfterFailingRounds: 3 },
      replies: [
        failingRound(1),
        failingRound(2),
        toolCall('read_file', { path: 'a.txt' }),
        failingRound(3),
        failingRound(4),
        { text: 'gave up' },
      ],
    });
    writeFileSync(path.join(h.root, 'a.txt'), 'alpha\n');
    expect(await h.run('read')).toEqual({ outcome: 'done', text: 'gave up' });
  });

  it('nudges when the same call is made 5 rounds running', async () => {
    const h = await startHarness({
      replies: [...rounds(5, () => toolCall('read_file', { path: 'a.txt' })), { text: 'fine' }],
    });
    writeFileSync(path.join(h.root, 'a.txt'), 'alpha\n');
    expect((await h.run('read a.txt')).outcome).toBe('done');
    const requests = h.chatRequests();
    expect(requests).toHaveLength(6);
    const stall = 'You have made the same tool calls 5 rounds running';
    expect(requests.slice(0, 5).some((r) => textOf(r).includes(stall))).toBe(false);
    expect(textOf(requests[5]!)).toContain(stall);
  });

  it('takes the stall limit from the limits object, and stops at twice it', async () => {
    const h = await startHarness({
      limits: { stallRounds: 2 },
      replies: rounds(6, () => toolCall('list_dir', { path: '.' })),
    });
    const result = await h.run('list');
    expect(result).toEqual({ outcome: 'limit', text: 'stopped: the same tool calls were made 4 rounds running' });
    expect(textOf(h.chatRequests()[2]!)).toContain('the same tool calls 2 rounds running');
  });

  it('stops softly at max steps: the turn ends with a notice, and the next prompt goes on from there', async () => {
    const h = await startHarness({
      limits: { maxSteps: 3 },
      replies: rounds(3, (n) => toolCall('glob', { pattern: `*.${n}` })),
    });
    const stopped = await h.run('explore');
    expect(stopped).toEqual({
      outcome: 'limit',
      text: 'stopped after 3 model calls (max steps); send another prompt to continue',
    });
    expect(h.chatRequests()).toHaveLength(3);
    expect(h.pathOf('tool_result').map((r) => r.payload.outcome)).toEqual(['ok', 'ok', 'ok']);
    expect(machineState(h.store).pc).toBe('Final');
    expect(h.pathOf('notice').at(-1)!.payload).toMatchObject({ level: 'warn', source: 'loop' });

    h.server.push({ text: 'summary of what I found' });
    expect(await h.run('continue')).toEqual({ outcome: 'done', text: 'summary of what I found' });
    expect(textOf(h.chatRequests()[3]!)).toContain('explore');
  });
});
