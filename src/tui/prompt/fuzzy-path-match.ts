/**
 * Fuzzy matching of workspace paths, as the `@` popup ranks them: every character typed must
 * appear in the path in order (case ignored); a match scores higher where its characters follow
 * one another, start a name (after `/`, `.`, `-`, `_` or a case change), fall in the last name
 * of the path, and where the path is short. Hand-written rather than taken from a fuzzy-search
 * package: the screen's node_modules is shared and fixed while tole is worked on, and the ranking
 * is a few lines of tole's own.
 */

/** A path prepared once: its lower-case form and where its last name starts. */
export interface PreparedPath {
  readonly path: string;
  readonly lower: string;
  readonly baseStart: number;
}

export function preparePath(path: string): PreparedPath {
  return { path, lower: path.toLowerCase(), baseStart: path.lastIndexOf('/') + 1 };
}

/** The score of `query` (lower case) in `target`, or null when its characters are not all there in order. */
export function fuzzyScore(query: string, target: PreparedPath): number | null {
  const { lower, path, baseStart } = target;
  let score = 0;
  let from = 0;
  let previous = -2;
  for (let i = 0; i < query.length; i++) {
    const at = lower.indexOf(query[i]!, from);
    if (at === -1) return null;
    if (at === previous + 1) score += 8;
    if (at === 0 || startsName(path, at)) score += 6;
    if (at >= baseStart) score += 2;
    previous = at;
    from = at + 1;
  }
  // A whole substring beats scattered letters, and a shorter path beats a longer one.
  const whole = lower.indexOf(query);
  if (whole !== -1) score += whole >= baseStart ? 24 : 12;
  return score - path.length / 16;
}

function startsName(path: string, at: number): boolean {
  const before = path[at - 1]!;
  if (before === '/' || before === '.' || before === '-' || before === '_' || before === ' ') return true;
  const here = path[at]!;
  return before.toLowerCase() === before && here.toUpperCase() === here && here.toLowerCase() !== here;
}

/** The best `limit` of `targets` for `typed`, best first (ties: shorter, then by name). */
export function bestMatches(typed: string, targets: readonly PreparedPath[], limit: number): PreparedPath[] {
  const query = typed.toLowerCase();
  const best: Array<{ target: PreparedPath; score: number }> = [];
  for (const target of targets) {
    const score = fuzzyScore(query, target);
    if (score === null) continue;
    if (best.length === limit && !better(score, target, best[limit - 1]!)) continue;
    let at = best.length;
    while (at > 0 && better(score, target, best[at - 1]!)) at--;
    best.splice(at, 0, { target, score });
    if (best.length > limit) best.pop();
  }
  return best.map((entry) => entry.target);
}

function better(score: number, target: PreparedPath, than: { target: PreparedPath; score: number }): boolean {
  if (score !== than.score) return score > than.score;
  return target.path < than.target.path;
}
