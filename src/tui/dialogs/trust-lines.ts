import { seg, wrapLine, type Line } from '../style/styled-line';

/** What an untrusted folder would do once trusted, as the trust prompt shows it. */
export interface TrustSummary {
  /** The project config, or the folder's `.tole` when there is no config. */
  readonly file: string;
  readonly folder: string;
  /** Every command that would run, each whole: by what runs it (`hook sessionStart`, `MCP server db`, ...). */
  readonly commands: ReadonlyArray<readonly [string, string]>;
  readonly baseUrl?: string;
  readonly providers: readonly string[];
  readonly allow: readonly string[];
  /** Every other gated field it sets, by name. */
  readonly otherFields: readonly string[];
  /** Why the folder cannot be trusted as it is, when it cannot. */
  readonly refused?: string;
}

/**
 * The prompt's body: each thing the folder would do, verbatim and whole (a long command wraps,
 * it is never cut; the prompt scrolls), then the keys. Every text from the folder is shown
 * through the terminal sanitizer (the painter's), so an escape in a command is seen, not run.
 */
export function trustLines(summary: TrustSummary, width: number): Line[] {
  const out: Line[] = [
    ...wrapLine(
      [
        seg('This folder holds tole configuration that someone else may have written: ', 'text'),
        seg(summary.file, 'path'),
      ],
      width,
    ),
    [seg('Until you trust the folder, tole ignores what it could do for it:', 'muted')],
    [],
  ];
  const item = (label: string, value: string, style: 'danger' | 'warn' | 'text' = 'text'): void => {
    out.push(...wrapLine([seg(`  ${label}  `, 'strong'), seg(value, style)], width, [seg('      ')]));
  };
  for (const [label, command] of summary.commands) item(label, command, 'danger');
  if (summary.commands.length > 0)
    out.push(...wrapLine([seg('  These commands run as you, outside any sandbox.', 'warn')], width));
  if (summary.baseUrl) item('base URL', `${summary.baseUrl} (your key would go there)`, 'warn');
  for (const provider of summary.providers) item('provider', provider, 'warn');
  for (const rule of summary.allow) item('allow', `${rule} (runs without asking)`, 'warn');
  if (summary.otherFields.length > 0) item('also sets', summary.otherFields.join(', '));
  out.push([]);
  if (summary.refused !== undefined) {
    out.push(...wrapLine([seg(`It cannot be trusted as it is: ${summary.refused}.`, 'danger')], width), [
      seg('n', 'accentBold'),
      seg('/', 'muted'),
      seg('Esc', 'accentBold'),
      seg(' open with it ignored', 'text'),
    ]);
    return out;
  }
  out.push(
    [
      seg('t', 'accentBold'),
      seg(' trust this folder as it is   ', 'text'),
      seg('n', 'accentBold'),
      seg('/', 'muted'),
      seg('Esc', 'accentBold'),
      seg(' not now (open with it ignored)', 'text'),
    ],
    [
      seg(
        'An edit to the config or to .tole makes it untrusted again; tole trust does the same from the shell.',
        'faint',
      ),
    ],
  );
  return out;
}
