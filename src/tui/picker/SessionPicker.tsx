import { Box } from 'ink';
import { useRef, useState } from 'react';
import { chordOf, hintsFor, keyFor, KEYMAP, resolveKey, type Binding } from '../input/keymap';
import { PaneFrame, innerSize } from '../panes/PaneFrame';
import { PickerFooter } from './PickerFooter';
import { filterSessions, pickerHeader, pickerRow, type PickerSession } from './picker-rows';
import { initialPicker, pickerAction, typeIntoFilter, type PickerState } from './picker-state';
import { seg, type Line } from '../style/styled-line';
import { StyledLine } from '../style/StyledLine';
import { useKeyboard } from '../input/use-keyboard';
import { useTerminalSize, type TerminalSize } from '../screen/use-terminal-size';

interface SessionPickerProps {
  readonly sessions: readonly PickerSession[];
  /** This directory: its sessions are listed first; a key shows every directory's. */
  readonly cwd: string;
  /** Shortens directories under it to `~`. */
  readonly home: string;
  readonly nowMs: number;
  readonly keymap?: readonly Binding[];
  /** Fixed size (tests); otherwise the terminal's. */
  readonly size?: TerminalSize;
  readonly onChoose: (session: PickerSession) => void;
  readonly onQuit: () => void;
  /** What Esc is called in the footer: `quit` before a session opens, `back` over a running one (`/resume`). */
  readonly leaveHint?: string;
}

const NO_CONDITIONS = new Set<never>();
const PASTE_START = '[200~';
const PASTE_END = '[201~';

/** The body of the list: the filter, the column heads, and the rows around the highlighted one. */
function listLines(
  props: SessionPickerProps,
  state: PickerState,
  shown: readonly PickerSession[],
  width: number,
  height: number,
): Line[] {
  const keymap = props.keymap ?? KEYMAP;
  const filter: Line = state.filter.value
    ? [seg('❯ ', 'accentBold'), seg(state.filter.value, 'strong'), seg('▍', 'accent')]
    : [seg('❯ ', 'accentBold'), seg('type to filter', 'faint')];
  const lines: Line[] = [filter, []];
  if (shown.length === 0) {
    const toggle = keyFor('toggle-all', keymap, 'picker') ?? 'Tab';
    const others = props.sessions.length;
    const why = state.filter.value
      ? `nothing matches "${state.filter.value}" (${keyFor('delete-to-start', keymap, 'picker') ?? '^U'} clears the filter)`
      : state.all
        ? 'no sessions yet: start one with tole'
        : `no sessions in ${props.cwd} yet${others > 0 ? `: ${toggle} lists every directory's (${others})` : ''}`;
    return [...lines, [seg(why, 'muted')]];
  }
  lines.push(pickerHeader(width, state.all));
  const room = Math.max(1, height - lines.length);
  const top = Math.max(0, Math.min(state.index - Math.floor(room / 2), shown.length - room));
  shown
    .slice(top, top + room)
    .forEach((s, i) => lines.push(pickerRow(s, top + i === state.index, width, state.all, props.nowMs, props.home)));
  return lines;
}

/** `tole --resume` without an id: sessions newest first; type to filter, ↑↓, ⏎ opens, Esc quits. */
export function SessionPicker(props: SessionPickerProps) {
  const terminal = useTerminalSize();
  const size = props.size ?? terminal;
  const keymap = props.keymap ?? KEYMAP;
  const here = props.sessions.filter((s) => s.cwd === props.cwd).length;
  const [state, setState] = useState(() => initialPicker(here === 0));
  // Keys that arrive together (a held ↓, a pasted filter then ⏎) each see the one before them.
  const latest = useRef(state);
  const update = (next: PickerState): void => {
    latest.current = next;
    setState(next);
  };
  const listed = (at: PickerState): { shown: PickerSession[]; current: PickerState } => {
    const shown = filterSessions(props.sessions, at.filter.value, props.cwd, at.all);
    return { shown, current: { ...at, index: Math.min(at.index, Math.max(0, shown.length - 1)) } };
  };
  const { shown, current } = listed(state);
  const index = current.index;
  const lines = Math.max(3, size.rows - 1);
  const paneHeight = lines - 2;
  const inner = innerSize(size.columns, paneHeight);
  const page = Math.max(1, inner.height - 3);

  useKeyboard((input, key) => {
    const { shown, current } = listed(latest.current);
    const chord = chordOf(input, key);
    const binding =
      chord === null ? null : resolveKey(chord, { scopes: ['picker'], conditions: NO_CONDITIONS }, keymap);
    if (binding?.action === 'quit') return props.onQuit();
    if (binding?.action === 'open-session') {
      const chosen = shown[current.index];
      // One that cannot be read stays here: the footer says why, and what tells more.
      if (chosen && chosen.problem === null) props.onChoose(chosen);
      return;
    }
    if (binding) return update(pickerAction(current, binding.action, shown.length, page));
    if (input === PASTE_START || input === PASTE_END) return;
    if (!key.ctrl && !key.meta && input !== '') update(typeIntoFilter(current, input));
  });

  const where = state.all ? 'every directory' : props.cwd;
  const title = `resume a session · ${where} · ${shown.length} of ${state.all ? props.sessions.length : here}`;
  const leave = props.leaveHint;
  const hints = hintsFor(['picker'], NO_CONDITIONS, keymap).map((h) =>
    leave && h.hint === 'quit' ? { ...h, hint: leave } : h,
  );
  return (
    <Box flexDirection="column" width={size.columns} height={lines} overflow="hidden">
      <PaneFrame title={title} width={size.columns} height={paneHeight} focused>
        <Box flexDirection="column">
          {listLines(props, current, shown, inner.width, inner.height).map((line, i) => (
            <StyledLine key={i} line={line} />
          ))}
        </Box>
      </PaneFrame>
      <PickerFooter selected={shown[index]} hints={hints} width={size.columns} />
    </Box>
  );
}
