import { KEYMAP, type Action, type Binding } from './keymap';

/**
 * The `keymap` field of the config: `{ "<action>": "<chord>" | ["<chord>", ...] }`. The chords
 * given replace the action's keys wherever the action is bound, and leave any other binding of
 * the same scope that held them, so that the new key does what the user asked.
 */
type KeymapOverrides = Readonly<Record<string, string | readonly string[]>>;

/** Every action the keymap binds: the names a config may use. */
const KEYMAP_ACTIONS: readonly Action[] = [...new Set(KEYMAP.map((b) => b.action))];

const NAMED_KEYS = new Set([
  'up',
  'down',
  'left',
  'right',
  'pageup',
  'pagedown',
  'home',
  'end',
  'return',
  'tab',
  'backspace',
  'delete',
  'escape',
]);
const ALIASES: Readonly<Record<string, string>> = {
  enter: 'return',
  esc: 'escape',
  pgup: 'pageup',
  pgdn: 'pagedown',
  del: 'delete',
  space: ' ',
};

export class KeymapError extends Error {
  override readonly name = 'KeymapError';
  constructor(
    /** `keymap.<action>`: the config field that is wrong. */
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** `"Ctrl+N"` → `ctrl+n`, `"alt+b"` → `meta+b`, `"enter"` → `return`, `"?"` → `?`; null when it is not a chord a terminal can send. */
export function parseChord(text: string): string | null {
  if (text.length === 1) return text;
  const parts = text.split('+');
  const last = parts.pop()!;
  const mods = parts.map((m) => m.trim().toLowerCase()).map((m) => (m === 'alt' || m === 'option' ? 'meta' : m));
  const key = last.length === 1 ? last : (ALIASES[last.trim().toLowerCase()] ?? last.trim().toLowerCase());
  if (
    key === '' ||
    mods.some((m) => m !== 'ctrl' && m !== 'meta' && m !== 'shift') ||
    new Set(mods).size !== mods.length
  )
    return null;
  const named = NAMED_KEYS.has(key);
  if (!named && [...key].length !== 1) return null;
  if (mods.includes('shift') && key !== 'tab') return null;
  if (mods.includes('ctrl') && !named && !/^[a-z]$/i.test(key)) return null;
  const ctrl = mods.includes('ctrl') ? 'ctrl+' : '';
  const meta = mods.includes('meta') ? 'meta+' : '';
  const shift = mods.includes('shift') ? 'shift+' : '';
  return `${ctrl}${meta}${shift}${mods.includes('ctrl') && !named ? key.toLowerCase() : key}`;
}

/** Edit distance, for naming the action a typo meant. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row.push(Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)));
    previous = row;
  }
  return previous[b.length]!;
}

function nearestAction(name: string): Action | null {
  let best: Action | null = null;
  let bestDistance = 4;
  for (const action of KEYMAP_ACTIONS) {
    const d = distance(name.toLowerCase(), action);
    if (d < bestDistance) [best, bestDistance] = [action, d];
  }
  return best;
}

/** The chords of one override, checked; the error names the field and what is wrong. */
export function overrideChords(action: string, value: string | readonly string[]): string[] {
  const field = `keymap.${action}`;
  if (!(KEYMAP_ACTIONS as readonly string[]).includes(action)) {
    const near = nearestAction(action);
    throw new KeymapError(
      field,
      `"${action}" is not an action${near ? `; did you mean "${near}"?` : ''} (actions: ${[...KEYMAP_ACTIONS].sort().join(', ')})`,
    );
  }
  const given = typeof value === 'string' ? [value] : value;
  if (given.length === 0) throw new KeymapError(field, 'give at least one key chord, such as "tab" or "ctrl+n"');
  return given.map((text) => {
    const chord = parseChord(text);
    if (chord === null)
      throw new KeymapError(
        field,
        `"${text}" is not a key chord (such as "tab", "ctrl+n", "meta+b", "shift+tab", "pageup", "?")`,
      );
    return chord;
  });
}

/** The keymap with the overrides applied over the defaults. Throws `KeymapError` on an unknown action or a bad chord. */
export function applyKeymapOverrides(
  overrides: KeymapOverrides | undefined,
  keymap: readonly Binding[] = KEYMAP,
): Binding[] {
  let out = [...keymap];
  for (const [action, value] of Object.entries(overrides ?? {})) {
    const chords = overrideChords(action, value);
    const scopes = new Set(out.filter((b) => b.action === action).map((b) => b.scope));
    out = out.map((b) => {
      if (b.action === action) return { ...b, keys: chords };
      if (scopes.has(b.scope)) return { ...b, keys: b.keys.filter((k) => !chords.includes(k)) };
      return b;
    });
  }
  return out;
}
