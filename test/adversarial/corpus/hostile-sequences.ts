/**
 * Class 5: escape sequences a model, a tool or a file sends toward the user's terminal. Each is
 * one the terminal would act on: set the clipboard, set the window title, make a link, notify,
 * ask the terminal to type an answer into tole's input, or reorder what the user reads. tole may
 * show them, made visible, but never pass them on.
 */
export interface HostileSequence {
  readonly id: string;
  readonly what: string;
  /** What the attacker sends. */
  readonly text: string;
  /** What must not reach the terminal (the part a terminal acts on). */
  readonly acted: string;
}

export const HOSTILE_SEQUENCES: readonly HostileSequence[] = [
  { id: 'osc52-bel', what: 'OSC 52 sets the clipboard (BEL-ended)', text: '\x1b]52;c;cHduZWQ=\x07', acted: '\x1b]52;' },
  {
    id: 'osc52-st',
    what: 'OSC 52 sets the clipboard (ST-ended)',
    text: '\x1b]52;p;cHduZWQ=\x1b\\',
    acted: '\x1b]52;p',
  },
  { id: 'osc0-title', what: 'OSC 0 sets the window title', text: '\x1b]0;PWNED-TITLE\x07', acted: '\x1b]0;PWNED' },
  { id: 'osc2-title', what: 'OSC 2 sets the window title', text: '\x1b]2;PWNED-TITLE2\x07', acted: '\x1b]2;PWNED' },
  {
    id: 'osc8-link',
    what: 'OSC 8 makes a link to somewhere else',
    text: '\x1b]8;;http://evil.example/x\x1b\\click\x1b]8;;\x1b\\',
    acted: '\x1b]8;;http://evil',
  },
  {
    id: 'osc9-notify',
    what: 'OSC 9 raises a desktop notification',
    text: '\x1b]9;PWNED-NOTIFY\x07',
    acted: '\x1b]9;PWNED',
  },
  {
    id: 'osc1337',
    what: "iTerm2's OSC 1337 (files, user vars)",
    text: '\x1b]1337;SetUserVar=x=cHduZWQ=\x07',
    acted: '\x1b]1337;',
  },
  {
    id: 'dcs',
    what: 'a DCS string (tmux passthrough, sixel)',
    text: '\x1bPtmux;\x1b\x1b]52;c;cHduZWQ=\x07\x1b\\',
    acted: '\x1bPtmux;',
  },
  { id: 'apc', what: 'an APC string (kitty graphics)', text: '\x1b_Gf=100;PWNED\x1b\\', acted: '\x1b_G' },
  {
    id: 'csi-title-report',
    what: 'CSI 21 t: the terminal types its title back into tole',
    text: '\x1b[21t',
    acted: '\x1b[21t',
  },
  {
    id: 'csi-dsr',
    what: 'CSI 6 n: the terminal types the cursor position into tole',
    text: '\x1b[6n',
    acted: '\x1b[6n',
  },
  { id: 'csi-da', what: 'CSI c: device attributes typed back', text: '\x1b[0c', acted: '\x1b[0c' },
  { id: 'c1-csi', what: 'a C1 CSI (U+009B) the terminal may read as ESC [', text: '\u009b2J', acted: '\u009b' },
  { id: 'c1-osc', what: 'a C1 OSC (U+009D)', text: '\u009d52;c;cHduZWQ=\u009c', acted: '\u009d' },
  {
    id: 'bidi-rlo',
    what: 'a right-to-left override reorders what the user reads',
    text: 'rm -rf \u202e/ fr- mr',
    acted: '\u202e',
  },
  { id: 'bidi-isolate', what: 'a bidi isolate', text: 'safe \u2067evil\u2069', acted: '\u2067' },
  {
    id: 'alt-screen-leave',
    what: 'leaving the alternate screen hides the session',
    text: '\x1b[?1049l',
    acted: 'PWNED-ALT\x1b[?1049l',
  },
  { id: 'mouse-report', what: 'turning mouse reporting on', text: '\x1b[?1000h', acted: 'PWNED-MOUSE\x1b[?1000h' },
];

/** Every sequence in one text, each after a word that names it. */
export function hostileText(): string {
  return HOSTILE_SEQUENCES.map((s) => {
    if (s.id === 'alt-screen-leave') return `PWNED-ALT${s.text}`;
    if (s.id === 'mouse-report') return `PWNED-MOUSE${s.text}`;
    return `${s.id}:${s.text}`;
  }).join(' ');
}
