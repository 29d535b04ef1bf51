import { classifyCommand } from '../../core/approval/command-risk';

/** The classifier's reason for a part it could not parse; alone, a line of a block (`fi`, `done`) reads so. */
const UNPARSEABLE = /^the command cannot be parsed/;

/**
 * The lines of a Destructive command line that hold a Destructive part, as indexes into its
 * lines (split at line breaks), for the approval box to mark. Each logical line (lines joined
 * where one ends in `\`) is classified alone; a part that cannot be parsed alone is not marked
 * unless the whole command was Destructive for that reason. When no line decides alone (the
 * Destructive part spans lines, a heredoc, a block), every line is marked: the mark never
 * leaves the line that decided unmarked.
 */
export function destructiveLines(command: string, wholeReason: string): ReadonlySet<number> {
  const lines = command.split('\n');
  const marked = new Set<number>();
  let start = 0;
  while (start < lines.length) {
    let end = start;
    while (end < lines.length - 1 && /(^|[^\\])(\\\\)*\\$/.test(lines[end]!)) end++;
    const logical = lines.slice(start, end + 1).join('\n');
    const { risk, reason } = classifyCommand(logical);
    if (risk === 'Destructive' && (!UNPARSEABLE.test(reason) || UNPARSEABLE.test(wholeReason)))
      for (let i = start; i <= end; i++) marked.add(i);
    start = end + 1;
  }
  if (marked.size === 0) for (let i = 0; i < lines.length; i++) marked.add(i);
  return marked;
}
