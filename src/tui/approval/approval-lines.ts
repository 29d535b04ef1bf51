import { approvalOffers, type ApprovalOffers } from './approval-offers';
import type { ApprovalField } from './approval-field';
import type { PendingApproval } from './approval-queue';
import { spread } from '../transcript/entry-lines';
import { inputLines } from './input-lines';
import { previewLines } from './preview-lines';
import { seg, truncateLine, wrapLine, type Line, type Segment } from '../style/styled-line';
import { visibleLines, visibleRow } from '../text/visible-text';
import { REACH_START, vettingFindings, vettingRemedy } from '../../core/approval/unconfined-vetting';

/**
 * The approval box in three parts: the head (tool and risk) and the foot (why, where it runs,
 * the keys) are always drawn; the body (every line of what will run) scrolls between them.
 */
export interface ApprovalView {
  readonly head: readonly Line[];
  readonly body: readonly Line[];
  readonly foot: readonly Line[];
  /** "Destructive: always asked…": drawn when there is room, dropped first when there is not. */
  readonly note: Line | null;
  /** The body row the view keeps in sight whatever the scroll (the cursor's, while the command is edited). */
  readonly follow?: number;
  /** The foot's last rows that hold the keys: they stay in place when the rest of a tall foot scrolls. */
  readonly keyRows?: number;
  /** The foot's rows after why and the findings (where it runs, the remedy, the keys): kept together when they fit. */
  readonly tailRows?: number;
}

/** The input as JSON, or null for one nested deeper than JSON.stringify's stack (JSON.parse took it). */
function jsonOf(input: unknown): string | null {
  try {
    return JSON.stringify(input);
  } catch {
    return null;
  }
}

/** False when the input is just the subject again (`{"command": "rm -rf build/"}` under `rm -rf build/`). */
function addsToSubject(input: unknown, subject: string): boolean {
  if (input === null || typeof input !== 'object') return String(input) !== subject;
  // An MCP call's subject is its arguments on one line: shown once, as lines.
  if (jsonOf(input) === subject) return true;
  const values = Object.values(input as Record<string, unknown>);
  return !(values.length === 1 && values[0] === subject);
}

/** The command's lines, numbered, a line holding a Destructive part marked `!` in the gutter. */
function commandLines(pending: PendingApproval, width: number): Line[] {
  const lines = visibleLines(pending.request.subject);
  const digits = String(lines.length).length;
  const gutter = digits + 3;
  const out: Line[] = [];
  lines.forEach((text, i) => {
    const marked = pending.marked.has(i);
    const head: Segment[] = [
      seg(marked ? '!' : ' ', 'danger'),
      seg(` ${String(i + 1).padStart(digits)} `, marked ? 'danger' : 'faint'),
    ];
    out.push(...wrapLine([...head, seg(text, marked ? 'danger' : 'strong')], width, [seg(' '.repeat(gutter))]));
  });
  return out;
}

/**
 * The body of each request at the width it was last laid out at: typing a denial's message or
 * scrolling lays out the foot again, never a long command's lines (50,000 lines take ~0.5 s).
 */
const laidOut = new WeakMap<PendingApproval, { readonly width: number; readonly body: readonly Line[] }>();

function bodyAt(pending: PendingApproval, width: number): readonly Line[] {
  const known = laidOut.get(pending);
  if (known?.width === width) return known.body;
  const body = bodyLines(pending, width);
  laidOut.set(pending, { width, body });
  return body;
}

function bodyLines(pending: PendingApproval, width: number): Line[] {
  const { request } = pending;
  const lines: Line[] = [];
  if (pending.shell) {
    lines.push(...commandLines(pending, width));
    const { input } = request;
    if (input === null || typeof input !== 'object' || !addsToSubject(input, request.subject)) return lines;
    // Anything the call says beside its command (a timeout, a working directory).
    const rest = Object.fromEntries(
      Object.entries(input as Record<string, unknown>).filter(([, value]) => value !== request.subject),
    );
    for (const text of inputLines(rest)) lines.push(...wrapLine([seg(text, 'codeBlock')], width, [seg('  ')]));
    return lines;
  }
  // An MCP call's subject is its arguments on one line: the lines below say them whole.
  if (jsonOf(request.input) !== request.subject)
    for (const text of visibleLines(request.subject))
      lines.push(...wrapLine([seg(text, 'strong')], width, [seg('  ')]));
  // A file tool's change is shown as what it does to the file, not as its arguments.
  if (request.preview) return [...lines, ...previewLines(request.preview, width)];
  if (addsToSubject(request.input, request.subject))
    for (const text of inputLines(request.input)) lines.push(...wrapLine([seg(text, 'codeBlock')], width, [seg('  ')]));
  return lines;
}

/**
 * The keys that act on this call and what each does (see ApprovalOffers): a key that could only
 * say no is not listed. The box's foot and the prompt's placeholder both say these.
 */
export function approvalKeys(pending: PendingApproval, offers: ApprovalOffers): [string, string][] {
  const { vetting } = pending.request;
  // Nothing can run: the one answer is to close the box.
  if (vetting?.outcome === 'refused')
    return [
      ['y/n', 'close: nothing runs'],
      ['Esc', 'stop the turn'],
    ];
  return [
    ['y', approveWords(vetting?.outcome)],
    ['n', 'deny (type why, ⏎)'],
    ...(offers.allow ? [['a', `allow ${pending.request.tool} for this session`] as [string, string]] : []),
    ...(offers.prefix ? [['p', 'allow its prefix'] as [string, string]] : []),
    ...(offers.edit ? [['e', 'edit it'] as [string, string]] : []),
    ['Esc', 'stop the turn'],
  ];
}

/** What `y` does, given the vetting's outcome. */
function approveWords(outcome: 'confined' | 'warned' | undefined): string {
  if (outcome === 'confined') return 'approve: it runs in the sandbox';
  if (outcome === 'warned') return 'approve: run it unconfined, as warned';
  return 'approve once';
}

/** The keys in the foot, or the open field in their place. */
function keyLine(pending: PendingApproval, width: number, field: ApprovalField | null, offers: ApprovalOffers): Line[] {
  if (field) return fieldLines(field, width);
  return keyRows(approvalKeys(pending, offers), width);
}

/** A key of an open field: what the box's foot says it does, and the status bar's shorter word. */
export interface FieldKey {
  readonly keys: string;
  readonly does: string;
  readonly hint: string;
}

/**
 * The keys of an open field and what each does: the box's foot says them under the field, and the
 * status bar names them while the field is open (there `y` is typed and Esc goes back to the box).
 * ⏎ and Esc come first: a narrow bar keeps the first hints.
 */
export function approvalFieldKeys(field: ApprovalField): FieldKey[] {
  const back: FieldKey = { keys: 'Esc', does: 'back', hint: 'back' };
  switch (field.kind) {
    case 'deny': {
      const does = field.value.trim() === '' ? 'deny (type first to say why)' : 'deny with this message';
      return [{ keys: '⏎', does, hint: 'deny' }, back];
    }
    case 'prefix':
      return [{ keys: 'p/⏎', does: 'approve and keep it', hint: 'approve, keep prefix' }, back];
    case 'edit':
      return [
        { keys: '⏎', does: 'approve as edited (checked again first)', hint: 'approve as edited' },
        back,
        { keys: 'Alt-⏎', does: 'new line', hint: 'new line' },
        { keys: '↑↓', does: 'lines', hint: 'lines' },
      ];
  }
}

/** The open field in place of the keys: what is typed (or offered), then its keys. */
function fieldLines(field: ApprovalField, width: number): Line[] {
  const keys = keyRows(
    approvalFieldKeys(field).map((k) => [k.keys, k.does] as const),
    width,
  );
  switch (field.kind) {
    case 'deny':
      return [
        ...wrapLine(
          [seg('deny, telling the model: ', 'warn'), seg(visibleLines(field.value).join(' ')), seg('▏', 'accent')],
          width,
        ),
        ...keys,
      ];
    case 'prefix':
      return [
        ...wrapLine(
          [
            seg('allow for this session every command starting ', 'warn'),
            seg(field.prefix.join(' '), 'strong'),
            seg(' (in the sandbox; never a Destructive one, nor a line running anything else)', 'muted'),
          ],
          width,
        ),
        ...keys,
      ];
    case 'edit':
      // The command as edited is the box's body (editedLines): every line of it can be reached.
      return keys;
  }
}

/**
 * The command being edited, as the box's body: numbered like the command, the cursor drawn where
 * it is; `follow` is the row that holds the cursor.
 */
function editedLines(editor: { readonly value: string; readonly cursor: number }, width: number) {
  const { value, cursor } = editor;
  const lines = visibleLines(`${value.slice(0, cursor)}▏${value.slice(cursor)}`);
  const cursorLine = value.slice(0, cursor).split('\n').length - 1;
  const digits = String(lines.length).length;
  const body: Line[] = [];
  let follow = 0;
  lines.forEach((text, i) => {
    if (i === cursorLine) follow = body.length;
    const head = [seg(`  ${String(i + 1).padStart(digits)} `, 'warn')];
    body.push(...wrapLine([...head, seg(text, 'strong')], width, [seg(' '.repeat(digits + 3))]));
  });
  return { body, follow };
}

/** Keys and what they do, laid out in rows; a key is never parted from its words. */
function keyRows(keys: readonly (readonly [string, string])[], width: number): Line[] {
  const rows: Segment[][] = [[]];
  let used = 0;
  for (const [key, does] of keys) {
    const cells = key.length + 1 + does.length;
    if (used > 0 && used + 3 + cells > width) {
      rows.push([]);
      used = 0;
    }
    const row = rows[rows.length - 1]!;
    if (used > 0) row.push(seg('   '));
    row.push(seg(key, 'accentBold'), seg(` ${does}`));
    used += (used > 0 ? 3 : 0) + cells;
  }
  return rows.map((row) => truncateLine(row, width));
}

/** The parts of the approval box for a request at a width; every line fits the width. */
export function approvalView(
  pending: PendingApproval,
  width: number,
  field: ApprovalField | null = null,
  offers: ApprovalOffers = approvalOffers(pending, null),
): ApprovalView {
  const { request } = pending;
  const destructive = request.risk === 'Destructive';
  const foot: Line[] = [];
  if (request.reason)
    foot.push(
      ...wrapLine(
        [seg('why: ', 'muted'), ...visibleLines(request.reason).map((t) => seg(t, destructive ? 'danger' : 'text'))],
        width,
        [seg('     ')],
      ),
    );
  foot.push(...vettingLines(pending, width));
  const findingRows = foot.length;
  if (request.runs)
    foot.push(
      ...wrapLine([seg('runs: ', 'muted'), seg(request.runs, request.vetting ? 'warn' : 'text')], width, [
        seg('      '),
      ]),
    );
  if (request.vetting) foot.push(...wrapLine([seg(vettingRemedy(request.vetting), 'muted')], width, [seg('      ')]));
  const keys = keyLine(pending, width, field, offers);
  foot.push(...keys);
  const edited = field?.kind === 'edit' ? editedLines(field.editor, width) : null;
  return {
    ...(edited ? { follow: edited.follow } : {}),
    keyRows: keys.length,
    tailRows: foot.length - findingRows,
    head: [
      spread([seg(request.tool, 'toolName')], [seg(destructive ? ' Destructive ' : request.risk, request.risk)], width),
      // A sub-agent's call is asked on this screen: who asks is always in sight.
      ...(request.agent
        ? [truncateLine([seg('asked by ', 'muted'), seg(visibleRow(request.agent), 'accentBold')], width)]
        : []),
      ...(edited ? [truncateLine([seg('run instead (as edited):', 'warn')], width)] : []),
    ],
    body: edited ? edited.body : bodyAt(pending, width),
    foot,
    note: destructive
      ? truncateLine([seg('Destructive: always asked; --yes and rules never apply', 'danger')], width)
      : null,
  };
}

/**
 * What tole found before asking that keeps the call from running unconfined (the repository's
 * git config), each finding on its lines: its keys and paths come from the repository, so they
 * are shown as what they hold.
 */
function vettingLines(pending: PendingApproval, width: number): Line[] {
  const { vetting } = pending.request;
  if (!vetting) return [];
  // A warning the key accepts is drawn whole: what each finding shares is said once, above them.
  if (vetting.outcome === 'warned')
    return [
      ...wrapLine([seg('found: ', 'muted'), seg(REACH_START.slice(0, -' it '.length), 'warn')], width, [
        seg('       '),
      ]),
      ...warningGroups(vettingFindings(vetting).map((finding) => finding.slice(REACH_START.length))).flatMap((group) =>
        wrapLine([seg('     · ', 'muted'), seg(visibleRow(group), 'warn')], width, [seg('       ')]),
      ),
    ];
  return vettingFindings(vetting).flatMap((finding, i) =>
    wrapLine([seg(i === 0 ? 'found: ' : '       ', 'muted'), seg(visibleRow(finding), 'warn')], width, [
      seg('       '),
    ]),
  );
}

/**
 * The findings of a warning with the same reason said once (`runs ssh, runs tmux: each runs
 * commands in an environment of its own`), so that the whole warning fits a small screen's foot;
 * each finding's own part is kept as written, in order.
 */
export function warningGroups(findings: readonly string[]): string[] {
  const groups = new Map<string, string[]>();
  for (const finding of findings) {
    const at = finding.indexOf(', which ');
    const tail = at === -1 ? '' : finding.slice(at + ', which '.length);
    const key = tail === '' ? `\0${finding}` : tail;
    groups.set(key, [...(groups.get(key) ?? []), at === -1 ? finding : finding.slice(0, at)]);
  }
  return [...groups].map(([tail, heads]) => {
    if (tail.startsWith('\0')) return heads[0]!;
    return heads.length === 1 ? `${heads[0]}, which ${tail}` : `${heads.join(', ')}: each ${tail}`;
  });
}

/** Rows the whole view takes, unscrolled. */
export function approvalRows(view: ApprovalView): number {
  return view.head.length + view.body.length + view.foot.length + (view.note ? 1 : 0);
}

export interface FittedApproval {
  readonly lines: readonly Line[];
  /** The first body line shown (the scroll position, clamped). */
  readonly top: number;
  /** Body lines shown at once: what a page moves. */
  readonly page: number;
  /** Lines the body scrolls through: the view's, and the first foot lines that did not fit below it. */
  readonly bodyLength: number;
  /**
   * "rows 1–8 of 32", when the body does not fit whole: rows, not lines of the command, since a long
   * line wraps into several rows (a two-line command can scroll through 22).
   */
  readonly position: string | null;
}

/**
 * The view cut to `height` rows with the body scrolled to `top`: the head and foot stay, the note
 * is dropped before the body shrinks below two lines, the body keeps at least one line. A foot too
 * tall for that (a long warning on a small screen) keeps only its last rows (the keys) in place and
 * leaves its first lines at the body's end, where scrolling reaches them: nothing the key answers is
 * out of reach.
 */
export function fitApproval(view: ApprovalView, height: number, top: number): FittedApproval {
  const { body, foot } = foldedFoot(view, height);
  const room = height - view.head.length - foot.length;
  const note = view.note && room - 1 >= Math.min(2, body.length) ? view.note : null;
  const page = Math.max(1, Math.min(body.length, room - (note ? 1 : 0)));
  const kept = view.follow === undefined ? top : Math.min(Math.max(top, view.follow - page + 1), view.follow);
  const first = Math.max(0, Math.min(kept, body.length - page));
  const shown = body.slice(first, first + page);
  // Below the smallest screen tole supports, the keys are what stays: the first foot lines go, and
  // when not every key row fits, the first ones stay (the row naming y, which approves), not the last.
  const footRows = Math.max(1, height - view.head.length - shown.length - (note ? 1 : 0));
  const keyStart = Math.max(0, foot.length - (view.keyRows ?? 1));
  const footShown =
    footRows < foot.length - keyStart
      ? foot.slice(keyStart, keyStart + footRows)
      : foot.slice(Math.max(0, foot.length - footRows));
  const lines = [...view.head, ...shown, ...footShown, ...(note ? [note] : [])].slice(0, Math.max(0, height));
  const position = body.length > page ? `rows ${first + 1}–${first + shown.length} of ${body.length}` : null;
  return { lines, top: first, page, bodyLength: body.length, position };
}

/**
 * The body and the foot for `height` rows. When the whole foot and one body line do not fit, why
 * and the findings go whole to the body's end (they read from their first line when scrolled to),
 * or, when the rest of the foot does not fit either, every foot line above the keys.
 */
function foldedFoot(view: ApprovalView, height: number): { body: readonly Line[]; foot: readonly Line[] } {
  const footRoom = height - view.head.length - 1;
  if (view.foot.length <= footRoom || view.follow !== undefined) return view;
  const tail = view.tailRows ?? 0;
  const stays = Math.min(view.foot.length, tail <= footRoom ? tail : (view.keyRows ?? 1));
  const moved = view.foot.length - stays;
  return { body: [...view.body, ...view.foot.slice(0, moved)], foot: view.foot.slice(moved) };
}
