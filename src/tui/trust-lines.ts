import { seg, wrapLine, type Line } from './styled-line';

/** What an untrusted project config would do once trusted, as the trust prompt shows it. */
export interface TrustSummary {
  readonly file: string;
  readonly folder: string;
  /** Hook commands by event, verbatim. */
  readonly hooks: ReadonlyArray<readonly [string, string]>;
  readonly baseUrl?: string;
  readonly providers: readonly string[];
  readonly allow: readonly string[];
  /** Every other gated field it sets, by name. */
  readonly otherFields: readonly string[];
  /** MCP servers it would start, with their commands or URLs. */
  readonly mcpServers: ReadonlyArray<readonly [string, string]>;
}

/** The prompt's body: each thing the config would do, verbatim, then the keys. */
export function trustLines(summary: TrustSummary, width: number): Line[] {
  const out: Line[] = [
    ...wrapLine(
      [seg('This folder has a tole config that someone else may have written: ', 'text'), seg(summary.file, 'path')],
      width,
    ),
    [seg('Until you trust the folder, tole ignores what it could do for it:', 'muted')],
    [],
  ];
  const item = (label: string, value: string, style: 'danger' | 'warn' | 'text' = 'text'): void => {
    out.push(...wrapLine([seg(`  ${label}  `, 'strong'), seg(value, style)], width, [seg('      ')]));
  };
  for (const [event, command] of summary.hooks) item(`hook ${event}`, command, 'danger');
  for (const [name, how] of summary.mcpServers) item(`MCP server ${name}`, how, 'danger');
  if (summary.baseUrl) item('base URL', `${summary.baseUrl} (your key would go there)`, 'warn');
  for (const provider of summary.providers) item('provider', provider, 'warn');
  for (const rule of summary.allow) item('allow', `${rule} (runs without asking)`, 'warn');
  if (summary.otherFields.length > 0) item('also sets', summary.otherFields.join(', '));
  out.push(
    [],
    [
      seg('t', 'accentBold'),
      seg(' trust this folder with this config   ', 'text'),
      seg('n', 'accentBold'),
      seg('/', 'muted'),
      seg('Esc', 'accentBold'),
      seg(' not now (open with it ignored)', 'text'),
    ],
    [seg('An edit to the file makes it untrusted again; tole trust does the same from the shell.', 'faint')],
  );
  return out;
}
