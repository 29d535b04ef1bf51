/** What a checkpoint left out, and what restoring it would do and did. */

import { pathKey, pathText } from './path-bytes';

/** A path a checkpoint does not hold, and why. */
export interface LeftOut {
  /** The name as text (`pathText`: escaped where it is not UTF-8). */
  readonly path: string;
  /** The name's bytes in base64, when it is not UTF-8 (then `path` is only its escaped text). */
  readonly raw?: string;
  readonly why: 'too-large' | 'nested-repository';
  readonly bytes?: number;
}

/** What restoring a checkpoint would do to the workspace as it is now. */
export interface RestorePlan {
  readonly checkpoint: string;
  /** Files the checkpoint holds that are not in the workspace now: created. */
  readonly added: readonly string[];
  /** Files whose bytes, mode or kind differ now: overwritten. */
  readonly changed: readonly string[];
  /** Files in the workspace now that the checkpoint does not hold: removed. */
  readonly removed: readonly string[];
  /** Paths the checkpoint left out (too large, nested repositories): restore leaves them as they are. */
  readonly leftOut: readonly LeftOut[];
  /** The same paths as bytes, for the filesystem and git (the lists above are their text). */
  readonly bytes: {
    readonly added: readonly Buffer[];
    readonly changed: readonly Buffer[];
    readonly removed: readonly Buffer[];
  };
}

/**
 * A restore that failed before it wrote anything (while it planned, or at its first removal): the
 * files are as they were. Its message is the failure's own.
 */
export class RestoreWroteNothing extends Error {
  override readonly name = 'RestoreWroteNothing';
  constructor(cause: unknown) {
    super((cause as Error)?.message ?? String(cause), { cause });
  }
}

/**
 * A restore after which the workspace still differs from its checkpoint: `left` says where (what
 * was not restored). `planned` is what the restore set out to change and `cause` the failure that
 * stopped it part way, when one did (without one, the files were written and still differ).
 */
export class RestoreIncomplete extends Error {
  override readonly name = 'RestoreIncomplete';
  constructor(
    readonly left: RestorePlan,
    readonly planned: RestorePlan = left,
    cause?: unknown,
  ) {
    const list = (mark: string, paths: readonly string[]): string[] => paths.slice(0, 8).map((p) => `${mark}${p}`);
    const named = [
      ...list('still there: ', left.removed),
      ...list('still missing: ', left.added),
      ...list('still different: ', left.changed),
    ];
    const more = planSize(left) - named.length;
    const why =
      cause === undefined
        ? 'another process may be changing them, or they cannot be written'
        : `the restore stopped at: ${(cause as Error)?.message ?? String(cause)}`;
    super(
      `the files still differ from checkpoint ${left.checkpoint.slice(0, 12)} after the restore (${named.join('; ')}${more > 0 ? `; and ${more} more` : ''}): ${why}`,
      cause === undefined ? undefined : { cause },
    );
  }

  /** The paths the restore set out to change that now hold what the checkpoint holds. */
  get restored(): RestorePlan {
    const { added, changed, removed } = this.left.bytes;
    const still = new Set([...added, ...changed, ...removed].map(pathKey));
    const done = (paths: readonly Buffer[]): Buffer[] => paths.filter((path) => !still.has(pathKey(path)));
    const bytes = {
      added: done(this.planned.bytes.added),
      changed: done(this.planned.bytes.changed),
      removed: done(this.planned.bytes.removed),
    };
    return {
      ...this.planned,
      added: bytes.added.map(pathText),
      changed: bytes.changed.map(pathText),
      removed: bytes.removed.map(pathText),
      bytes,
    };
  }
}

export function planSize(plan: RestorePlan): number {
  return plan.added.length + plan.changed.length + plan.removed.length;
}
