import { BUILTIN_IGNORES, type LeftOut, type RestorePlan } from './checkpoint-store';

/** How many paths of each kind a preview names before it says "and N more". */
const PREVIEW_PATHS = 8;

/** The counts of a restore plan in one line. */
function planCounts(plan: RestorePlan): string {
  return `${plan.added.length} to create · ${plan.changed.length} to overwrite · ${plan.removed.length} to remove`;
}

/** A restore preview as plain lines: the counts, the paths (+ created, ~ overwritten, - removed), what is left out. */
export function planLines(plan: RestorePlan, limit = PREVIEW_PATHS): string[] {
  const lines = [planCounts(plan)];
  const list = (mark: string, paths: readonly string[]): void => {
    for (const path of paths.slice(0, limit)) lines.push(`${mark} ${path}`);
    if (paths.length > limit) lines.push(`${mark} … and ${paths.length - limit} more`);
  };
  list('~', plan.changed);
  list('-', plan.removed);
  list('+', plan.added);
  if (plan.leftOut.length > 0)
    lines.push(
      `left as they are (not in the checkpoint): ${plan.leftOut.slice(0, limit).map(leftOutText).join(', ')}${plan.leftOut.length > limit ? ', …' : ''}`,
    );
  lines.push(`never in checkpoints: paths your .gitignore names, and ${BUILTIN_IGNORES.join(' ')}`);
  return lines;
}

/** A plan's paths in one line (~ overwritten, - removed, + created), the first `limit` of them and how many more. */
export function planPaths(plan: RestorePlan, limit = PREVIEW_PATHS): string {
  const marked = [
    ...plan.changed.map((p) => `~ ${p}`),
    ...plan.removed.map((p) => `- ${p}`),
    ...plan.added.map((p) => `+ ${p}`),
  ];
  const more = marked.length - limit;
  return `${marked.slice(0, limit).join(', ')}${more > 0 ? `, and ${more} more` : ''}`;
}

function leftOutText(left: LeftOut): string {
  if (left.why === 'nested-repository') return `${left.path} (a nested git repository)`;
  const mb = left.bytes === undefined ? '' : `${(left.bytes / (1024 * 1024)).toFixed(1)} MB, `;
  return `${left.path} (${mb}over the size limit)`;
}
