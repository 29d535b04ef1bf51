import type { PaletteKey, Theme } from './theme';

/** The roles text plays on screen. A theme colours each role; components name roles, never colours. */
interface StyleSpec {
  readonly fg?: PaletteKey;
  readonly bg?: PaletteKey;
  readonly bold?: boolean;
  readonly dim?: boolean;
  readonly italic?: boolean;
  readonly underline?: boolean;
  /** Without colour, inverse video keeps the role visible (selections, the danger banner). */
  readonly inverseWithoutColour?: boolean;
}

const STYLES = {
  text: { fg: 'text' },
  muted: { fg: 'muted' },
  faint: { fg: 'muted', dim: true },
  accent: { fg: 'accent' },
  accentBold: { fg: 'accent', bold: true },
  border: { fg: 'border' },
  borderFocused: { fg: 'borderFocused', bold: true },
  user: { fg: 'user', bold: true },
  assistant: { fg: 'assistant', bold: true },
  tool: { fg: 'tool' },
  toolName: { fg: 'tool', bold: true },
  ReadOnly: { fg: 'riskReadOnly' },
  Write: { fg: 'riskWrite', bold: true },
  Destructive: { fg: 'danger', bold: true, inverseWithoutColour: true },
  danger: { fg: 'danger', bold: true },
  ok: { fg: 'ok' },
  warn: { fg: 'warn' },
  error: { fg: 'error', bold: true },
  diffAdd: { fg: 'diffAdd' },
  diffRemove: { fg: 'diffRemove' },
  diffHunk: { fg: 'diffHunk' },
  diffMeta: { fg: 'muted', bold: true },
  code: { fg: 'code' },
  codeBlock: { fg: 'codeBlock' },
  heading: { fg: 'heading', bold: true },
  strong: { fg: 'text', bold: true },
  emphasis: { fg: 'text', italic: true },
  quote: { fg: 'muted', italic: true },
  path: { fg: 'pathHighlight', bold: true },
  head: { fg: 'head', bold: true },
  selected: { bg: 'selectionBackground', inverseWithoutColour: true },
  /** A tree row that the search (`/`) found. */
  match: { fg: 'warn', bold: true, underline: true },
  status: { fg: 'statusText', bg: 'statusBackground' },
  statusKey: { fg: 'accent', bg: 'statusBackground', bold: true },
  statusAlert: { fg: 'error', bg: 'statusBackground', bold: true },
} as const satisfies Record<string, StyleSpec>;

export type StyleName = keyof typeof STYLES;

/** Props for Ink's `<Text>`. */
export interface TextStyle {
  readonly color?: string;
  readonly backgroundColor?: string;
  readonly bold?: boolean;
  readonly dimColor?: boolean;
  readonly italic?: boolean;
  readonly underline?: boolean;
  readonly inverse?: boolean;
}

/** What a style name becomes under a theme; with `noColor`, no colour at all. */
export function resolveStyle(name: StyleName, theme: Theme, noColor: boolean): TextStyle {
  const spec: StyleSpec = STYLES[name];
  const style: { -readonly [K in keyof TextStyle]: TextStyle[K] } = {};
  if (!noColor && spec.fg) style.color = theme.palette[spec.fg];
  if (!noColor && spec.bg) style.backgroundColor = theme.palette[spec.bg];
  if (spec.bold) style.bold = true;
  if (spec.dim) style.dimColor = true;
  if (spec.italic) style.italic = true;
  if (spec.underline) style.underline = true;
  if (noColor && spec.inverseWithoutColour) style.inverse = true;
  return style;
}
