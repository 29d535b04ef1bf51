import type { FailedCheckpoint } from '../checkpoints/checkpoint-store';
import { type LostUnderHead, lostText } from '../checkpoints/lost-objects';
import type { NoticePayload } from './turn-hooks';

/**
 * What the user is told when a checkpoint before a call fails, so that every call that ran without
 * one is known: the first failure in a row in full (the reason and what it means), each later one
 * in a short line on its own call. Checkpoints that cannot work here at all (`standing`) are told
 * once: the first line says no call of this tole gets one, and a line on every call would say
 * nothing more.
 */
export function failedCheckpointNotices(failed: FailedCheckpoint): NoticePayload[] {
  if (failed.standing)
    return failed.firstReport
      ? [notice(`checkpoints are off: ${failed.reason}. Calls still run, but their file changes cannot be restored.`)]
      : [];
  if (failed.firstReport)
    return [
      notice(
        `checkpoints are off: ${failed.reason}. This call runs without one, and so does every call until a checkpoint is taken again: their file changes cannot be restored.`,
      ),
    ];
  return [notice(`no checkpoint for this call either (${failed.inARow} calls in a row without one): ${failed.reason}`)];
}

/** The line that says checkpoints work again after `failures` calls ran without one. */
export function checkpointsBackNotices(failures: number): NoticePayload[] {
  const calls = failures === 1 ? '1 call' : `${failures} calls`;
  return [
    {
      level: 'info',
      source: 'checkpoint',
      text: `checkpoints are on again: this call has one (${calls} before it ran without one, and cannot be restored).`,
    },
  ];
}

function notice(text: string): NoticePayload {
  return { level: 'warn', source: 'checkpoint', text };
}

/**
 * The newest checkpoint before this call's could not be read (lost in a crash, or removed): this
 * call's checkpoint starts a new chain. Said once, on the call whose checkpoint started it.
 */
export function lostCheckpointNotices(
  lost: readonly string[],
  parent: string | null,
  directory: string,
): NoticePayload[] {
  const names = lost.map((id) => id.slice(0, 12)).join(' and ');
  const from =
    parent === null
      ? 'with no checkpoint before it'
      : `after checkpoint ${parent.slice(0, 12)}, the newest that can be read`;
  return [
    notice(
      `checkpoint ${names} was lost (its commit cannot be read in ${directory}): this call's checkpoint starts the chain again, ${from}; a restore to ${lost.length === 1 ? 'it' : 'them'} cannot be done.`,
    ),
  ];
}

/**
 * Files or folders under the newest checkpoint before this call's could not be read (lost in a
 * crash before they reached the disk, or removed), though its commit reads: this call's
 * checkpoint read every file of the workspace again. Said once, on that call.
 */
export function lostObjectsNotices(holes: LostUnderHead, directory: string): NoticePayload[] {
  const count = holes.lost.length;
  return [
    notice(
      `checkpoint ${holes.checkpoint.slice(0, 12)} has lost ${count === 1 ? 'part' : `${count} parts`} of what it held (${lostText(holes.lost)}: a crash before ${count === 1 ? 'it' : 'they'} reached the disk, or removed from ${directory}): this call's checkpoint reads every file again and holds the workspace whole; a restore to that checkpoint or an earlier one cannot bring back a lost file the workspace no longer holds as it was then, and says so before writing anything.`,
    ),
  ];
}
