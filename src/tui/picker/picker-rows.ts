import type { SessionSummary } from '../../core/session/session-summary';
import { withChildrenUnderParents } from '../../core/session/session-family';
import { cellWidth, fit } from '../text/cell-width';
import { formatCost } from '../../core/usage/cost-text';
import { oneLine } from '../text/format';
import { homeShort } from '../text/path-fit';
import { seg, truncateLine, type Line } from '../style/styled-line';

/** A session as the picker lists it (what `tole sessions` sums up). */
export type PickerSession = SessionSummary;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** `just now`, `5 min ago`, `3 h ago`, `yesterday`, `4 days ago`, `12 Nov`, `12 Nov 2024` (local time). */
function relativeTime(ms: number, nowMs: number): string {
  const ago = nowMs - ms;
  if (ago < MINUTE_MS) return 'just now';
  if (ago < HOUR_MS) return `${Math.floor(ago / MINUTE_MS)} min ago`;
  if (ago < DAY_MS) return `${Math.floor(ago / HOUR_MS)} h ago`;
  if (ago < 2 * DAY_MS) return 'yesterday';
  if (ago < 7 * DAY_MS) return `${Math.floor(ago / DAY_MS)} days ago`;
  const date = new Date(ms);
  const day = `${date.getDate()} ${MONTHS[date.getMonth()]}`;
  return date.getFullYear() === new Date(nowMs).getFullYear() ? day : `${day} ${date.getFullYear()}`;
}

/** The sessions shown: this directory's (or all), newest first, whose name, prompt, id or directory holds every word typed. */
export function filterSessions(
  sessions: readonly PickerSession[],
  query: string,
  cwd: string,
  all: boolean,
): PickerSession[] {
  const words = query
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w !== '');
  const shown = sessions
    .filter((s) => all || s.cwd === cwd)
    .filter((s) => {
      const text = `${s.name ?? ''}\n${s.firstPrompt}\n${s.id}\n${s.cwd}`.toLowerCase();
      return words.every((w) => text.includes(w));
    })
    .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1));
  // Each sub-agent right under its parent (when the parent is shown too).
  return withChildrenUnderParents(shown);
}

const WHEN = 12;
const ENTRIES = 8;
const BRANCHES = 9;
const COST = 10;
const DIR = 28;

function columns(width: number, all: boolean): { prompt: number; dir: number } {
  const fixed = 2 + WHEN + ENTRIES + BRANCHES + COST + 2;
  const dir = all && width >= 100 ? DIR : 0;
  return { prompt: Math.max(10, width - fixed - dir), dir };
}

const right = (text: string, width: number): string => `${' '.repeat(Math.max(0, width - cellWidth(text)))}${text}`;

export function pickerHeader(width: number, all: boolean): Line {
  const c = columns(width, all);
  const text = `  ${fit('when', WHEN)}${fit('name · first prompt', c.prompt)}${c.dir ? fit(' directory', c.dir) : ''}${right('entries', ENTRIES)}${right('branches', BRANCHES)}${right('cost', COST)}`;
  return truncateLine([seg(text, 'faint')], width);
}

/** `~/code/x` for a directory under home; a long one keeps its end (`…/code/x`), the part that tells it apart. */
function shortDir(dir: string, home: string, width: number): string {
  const short = home !== '' && dir === home ? '~' : homeShort(dir, home);
  return short.length <= width ? short : `…${short.slice(short.length - width + 1)}`;
}

export function pickerRow(
  session: PickerSession,
  selected: boolean,
  width: number,
  all: boolean,
  nowMs: number,
  home: string,
): Line {
  const c = columns(width, all);
  const own = session.problem ? '! cannot be opened' : oneLine(session.firstPrompt) || '(no prompt yet)';
  // A sub-agent sits under its parent, marked, with its profile.
  const prompt = session.task ? `└ sub-agent${session.task.agent ? ` ${session.task.agent}` : ''}: ${own}` : own;
  const promptStyle = session.problem ? 'warn' : session.firstPrompt ? (selected ? 'strong' : 'text') : 'faint';
  // A named session shows its name first, then as much of the first prompt as fits.
  const name = session.name && !session.problem ? `${oneLine(session.name)} · ` : '';
  const nameWidth = Math.min(cellWidth(name), c.prompt - 1);
  const line = [
    seg(selected ? '▸ ' : '  ', 'accentBold'),
    seg(fit(relativeTime(session.createdAt, nowMs), WHEN), 'muted'),
    ...(name ? [seg(fit(name, nameWidth), 'accentBold')] : []),
    seg(fit(prompt, c.prompt - 1 - nameWidth), promptStyle),
    seg(' '),
    ...(c.dir ? [seg(fit(` ${shortDir(session.cwd, home, c.dir - 2)}`, c.dir), 'faint')] : []),
    seg(right(session.problem ? '-' : String(session.entries), ENTRIES), 'text'),
    seg(right(session.problem ? '-' : String(session.branches), BRANCHES), 'text'),
    seg(
      right(session.problem ? '-' : formatCost(session.costUsdMicros, session.unpriced, session.estimated), COST),
      'muted',
    ),
  ];
  return truncateLine(line, width);
}
