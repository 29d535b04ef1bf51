import { describe, expect, it } from 'vitest';
import { startHarness } from '../hooks/agent-harness';

describe('a turnError hook that prints {"retry":true}', () => {
  it('makes the failed call run once more, with the model it names', async () => {
    const h = await startHarness({
      hooks: { turnError: `echo '{"retry":true,"model":"backup-model"}'` },
      replies: [{ error: { status: 401 } }, { text: 'answered by the backup' }],
    });
    const result = await h.run('hi');
    expect(result).toEqual({ outcome: 'done', text: 'answered by the backup' });
    const models = h.chatRequests().map((r) => r.body?.model);
    expect(models).toHaveLength(2);
    expect(models[1]).toBe('backup-model');
    expect(h.agent.model).toBe('backup-model');
    expect(
      h
        .pathOf('notice')
        .map((n) => n.payload.text)
        .join('\n'),
    ).toContain('a turnError hook asked to try again with backup-model');
  });

  it('is asked once per failure: a second failure is settled as an error, not retried again', async () => {
    const h = await startHarness({
      hooks: { turnError: `echo '{"retry":true}'` },
      replies: [{ error: { status: 401 } }, { error: { status: 401 } }, { text: 'never sent' }],
    });
    expect((await h.run('hi')).outcome).toBe('error');
    expect(h.chatRequests()).toHaveLength(2);
  });

  it('other output, or another exit code, asks for nothing', async () => {
    const h = await startHarness({
      hooks: { turnError: `echo '{"retry":true}'; exit 1` },
      replies: [{ error: { status: 401 } }, { text: 'never sent' }],
    });
    expect((await h.run('hi')).outcome).toBe('error');
    expect(h.chatRequests()).toHaveLength(1);
  });
});
