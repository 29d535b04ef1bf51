import { cellWidth } from '../text/cell-width';
import { KEYMAP, keyLabel, type Binding, type Scope } from '../input/keymap';
import type { SlashCommand } from '../commands/slash-commands';
import { seg, wrapLine, type Line } from '../style/styled-line';

const SECTIONS: readonly { readonly scope: Scope; readonly title: string }[] = [
  { scope: 'global', title: 'everywhere' },
  { scope: 'input', title: 'prompt' },
  {
    scope: 'completion',
    title: 'completion popup (/ at the start: commands and their arguments; @: workspace files, attached when sent)',
  },
  { scope: 'tree', title: 'tree' },
  { scope: 'transcript', title: 'transcript' },
  { scope: 'usage', title: 'usage and registers' },
  { scope: 'approval', title: 'approval prompt' },
  { scope: 'restore', title: 'restore files prompt (u in the tree)' },
  { scope: 'checkout', title: 'check out prompt (⏎ in the tree, when the files differ)' },
  { scope: 'queue', title: 'queued prompts (/queue)' },
  { scope: 'find', title: 'find field (/ in the tree)' },
  { scope: 'label', title: 'label field (L in the tree)' },
  { scope: 'name', title: 'session name field (R in the tree, /name)' },
  { scope: 'help', title: 'this overlay' },
  { scope: 'setup', title: 'local servers panel (/connect)' },
];

const KEY_COLUMN = 16;

/** `keys  what they do`, the text wrapped under itself; keys too long for their column get a line of their own. */
function entryLines(keys: string, help: string, width: number): Line[] {
  const pad = ' '.repeat(KEY_COLUMN);
  const label = `  ${keys}`;
  if (cellWidth(label) >= KEY_COLUMN) {
    return [[seg(label, 'accentBold')], ...wrapLine([seg(pad), seg(help, 'text')], width, [seg(pad)])];
  }
  return wrapLine([seg(label.padEnd(KEY_COLUMN), 'accentBold'), seg(help, 'text')], width, [seg(pad)]);
}

function bindingLines(binding: Binding, width: number): Line[] {
  return entryLines(binding.keys.length > 0 ? binding.keys.map(keyLabel).join(' ') : '(unbound)', binding.help, width);
}

/**
 * The slash commands, then every binding of the screen's keymap (the config's overrides applied)
 * by where it works, wrapped to `width`. The session picker lists its own keys on its own screen.
 */
export function helpLines(
  commands: readonly SlashCommand[],
  width: number,
  keymap: readonly Binding[] = KEYMAP,
): Line[] {
  const lines: Line[] = [[seg('commands (type them in the prompt)', 'heading')]];
  for (const command of commands)
    lines.push(...entryLines(`/${command.name}${command.args ? ` ${command.args}` : ''}`, command.help, width));
  lines.push([]);
  for (const { scope, title } of SECTIONS) {
    const bindings = keymap.filter((b) => b.scope === scope);
    if (bindings.length === 0) continue;
    lines.push([seg(title, 'heading')]);
    for (const binding of bindings) lines.push(...bindingLines(binding, width));
    lines.push([]);
  }
  return lines;
}
