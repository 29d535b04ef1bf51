import { afterEach, describe, expect, it } from 'vitest';
import { eventually, hangingAgent, KEYS, renderScreen, type Screen } from './harness';
import { emptyStore } from './session-fixture';
import { destructiveRequest, writeRequest } from './approval-fixtures';
import { NOTIFY_DEFAULTS, type NotifySettings } from '../../src/tui/status/terminal-signal';
import type { Multiplexer } from '../../src/tui/commands/copy-answer';

const FOCUS_OUT = '\x1b[O';
const FOCUS_IN = '\x1b[I';
const BEL = '\x07';

let screen: Screen | undefined;
afterEach(() => screen?.unmount());

function signalled(
  settings: Partial<NotifySettings> = {},
  osc9Shown = true,
  multiplexer: Multiplexer = null,
): { written: string[]; agent: ReturnType<typeof hangingAgent> } {
  const written: string[] = [];
  const agent = hangingAgent();
  screen = renderScreen({
    store: emptyStore(),
    agent,
    writeTerminal: (data) => written.push(data),
    ...(multiplexer ? { multiplexer } : {}),
    signals: { settings: { ...NOTIFY_DEFAULTS, ...settings }, osc9Shown },
  });
  return { written, agent };
}

/** Waits until the approval box shows, then for the effects of that frame to have run. */
async function waitForApproval(s: Screen): Promise<void> {
  await s.waitFor('approve?');
}

describe('signals while the terminal is unfocused', () => {
  it('an approval that starts waiting rings the bell and sends an OSC 9 notification naming the tool', async () => {
    const { written } = signalled();
    await screen!.waitFor('type a prompt');
    await screen!.press(FOCUS_OUT);
    void screen!.approvals.decide(destructiveRequest, new AbortController().signal);
    await waitForApproval(screen!);
    await eventually(() => expect(written).toEqual([`${BEL}\x1b]9;tole: approval waiting: bash\x07`]));
  });

  it('where the terminal shows no OSC 9, only the bell', async () => {
    const { written } = signalled({}, false);
    await screen!.waitFor('type a prompt');
    await screen!.press(FOCUS_OUT);
    void screen!.approvals.decide(writeRequest, new AbortController().signal);
    await waitForApproval(screen!);
    await eventually(() => expect(written).toEqual([BEL]));
  });

  it('inside tmux the notification goes through its passthrough, as /copy does', async () => {
    const { written } = signalled({}, true, 'tmux');
    await screen!.waitFor('type a prompt');
    await screen!.press(FOCUS_OUT);
    void screen!.approvals.decide(writeRequest, new AbortController().signal);
    await waitForApproval(screen!);
    await eventually(() =>
      expect(written).toEqual([`${BEL}\x1bPtmux;\x1b\x1b]9;tole: approval waiting: write_file\x07\x1b\\`]),
    );
  });

  it('focused (never told otherwise, or focused again) nothing is written', async () => {
    const { written } = signalled();
    await screen!.waitFor('type a prompt');
    void screen!.approvals.decide(writeRequest, new AbortController().signal);
    await waitForApproval(screen!);
    await screen!.press('y');
    await screen!.waitFor('write_file approved');
    await screen!.press(FOCUS_OUT, FOCUS_IN);
    void screen!.approvals.decide({ ...writeRequest, callId: 'call_2' }, new AbortController().signal);
    await waitForApproval(screen!);
    // A third call, unfocused, does ring: the two before it had their chance to.
    await screen!.press('y');
    await screen!.waitFor('write_file approved');
    await screen!.press(FOCUS_OUT);
    void screen!.approvals.decide({ ...writeRequest, callId: 'call_3' }, new AbortController().signal);
    await waitForApproval(screen!);
    await eventually(() => expect(written).toEqual([`${BEL}\x1b]9;tole: approval waiting: write_file\x07`]));
  });

  it('with bell and osc9 off in the config nothing is written', async () => {
    const { written } = signalled({ bell: false, osc9: false });
    await screen!.waitFor('type a prompt');
    await screen!.press(FOCUS_OUT);
    void screen!.approvals.decide(writeRequest, new AbortController().signal);
    await waitForApproval(screen!);
    await screen!.press('y');
    await screen!.waitFor('write_file approved');
    expect(written).toEqual([]);
  });

  it('a turn that ran at least afterTurnMs rings when it ends unfocused; a shorter one does not', async () => {
    const { written, agent } = signalled({ afterTurnMs: 0 });
    await screen!.waitFor('type a prompt');
    await screen!.type('go');
    await screen!.press(KEYS.enter);
    await eventually(() => expect(agent.prompts).toEqual(['go']));
    await screen!.press(FOCUS_OUT);
    agent.finish();
    await eventually(() => expect(written).toEqual([`${BEL}\x1b]9;tole: turn done\x07`]));
  });

  it('a turn shorter than afterTurnMs ends quietly', async () => {
    const { written, agent } = signalled({ afterTurnMs: 3_600_000 });
    await screen!.waitFor('type a prompt');
    await screen!.type('go');
    await screen!.press(KEYS.enter);
    await eventually(() => expect(agent.prompts).toEqual(['go']));
    await screen!.press(FOCUS_OUT);
    agent.finish();
    // The approval after it rings: by then the turn's end has been seen and said nothing.
    void screen!.approvals.decide(writeRequest, new AbortController().signal);
    await waitForApproval(screen!);
    await eventually(() => expect(written).toEqual([`${BEL}\x1b]9;tole: approval waiting: write_file\x07`]));
  });

  it('a focus report never reaches the prompt as text, alone or in one read with typing', async () => {
    signalled();
    await screen!.waitFor('type a prompt');
    await screen!.press(FOCUS_OUT, 'a', FOCUS_IN, `b${FOCUS_OUT}c${FOCUS_IN}`);
    await screen!.waitFor('abc');
    expect(screen!.frame()).not.toMatch(/\[[IO]/);
  });

  it('a hostile tool name cannot end the notification early or start another sequence', async () => {
    const { written } = signalled();
    await screen!.waitFor('type a prompt');
    await screen!.press(FOCUS_OUT);
    const tool = 'evil\x07\x1b]52;c;cm0gLXJm\x07\x1b[2J\nname';
    void screen!.approvals.decide({ ...writeRequest, tool }, new AbortController().signal);
    await waitForApproval(screen!);
    await eventually(() => expect(written).toHaveLength(1));
    const sequence = written[0]!;
    expect(sequence.startsWith(`${BEL}\x1b]9;tole: approval waiting: evil`)).toBe(true);
    // One BEL to ring, one to end the OSC, and no other control character anywhere.
    expect([...sequence].filter((c) => c === BEL)).toHaveLength(2);
    expect([...sequence].filter((c) => c === '\x1b')).toHaveLength(1);
    expect(sequence).not.toContain('\n');
  });
});
