import { Box } from 'ink';
import { useMemo } from 'react';
import { helpLines } from './help-lines';
import { mcpHelpLines, type McpStatusSource } from './mcp-lines';
import type { Binding } from '../input/keymap';
import type { CommandReport, SlashCommand } from '../commands/slash-commands';
import { PaneFrame, innerSize } from '../panes/PaneFrame';
import { ScrolledLinesOverlay } from './ScrolledLinesOverlay';
import { StyledLine } from '../style/StyledLine';
import { seg, truncateLine, wrapLine, type Line } from '../style/styled-line';

interface HelpOverlayProps {
  readonly commands: readonly SlashCommand[];
  readonly width: number;
  readonly height: number;
  readonly offset: number;
  /** The keymap in force (the defaults, or the config's overrides over them). */
  readonly keymap?: readonly Binding[];
  /** The session's MCP servers: their tools are listed with tier and replay class. */
  readonly mcp?: McpStatusSource;
  /** A command's report, shown in place of the keys. */
  readonly report?: CommandReport | null;
}

/** Splits lines into columns section by section (sections end at blank lines), so no section is cut in two. */
function helpColumns(lines: readonly Line[], columns: number): Line[][] {
  const sections: Line[][] = [[]];
  for (const line of lines) {
    sections[sections.length - 1]!.push(line);
    if (line.length === 0) sections.push([]);
  }
  const target = Math.max(Math.ceil(lines.length / columns), ...sections.map((s) => s.length));
  const out: Line[][] = [[]];
  for (const section of sections) {
    const current = out[out.length - 1]!;
    if (current.length > 0 && current.length + section.length > target && out.length < columns) out.push([...section]);
    else current.push(...section);
  }
  return out;
}

/** Every key, as the keymap says, in as many columns as the width allows. */
export function HelpOverlay({ commands, width, height, offset, keymap, mcp, report }: HelpOverlayProps) {
  if (report) return <ReportOverlay report={report} width={width} height={height} offset={offset} />;
  return (
    <KeysOverlay
      commands={commands}
      width={width}
      height={height}
      offset={offset}
      {...(keymap ? { keymap } : {})}
      {...(mcp ? { mcp } : {})}
    />
  );
}

/** A command's report, wrapped to the width, scrolled like the keys. */
function ReportOverlay({
  report,
  width,
  height,
  offset,
}: {
  readonly report: CommandReport;
  readonly width: number;
  readonly height: number;
  readonly offset: number;
}) {
  const inner = innerSize(width, height);
  const lines = useMemo(
    () => report.lines.flatMap((text) => wrapLine([seg(text === '' ? ' ' : text)], inner.width - 1, [seg('    ')])),
    [report, inner.width],
  );
  return (
    <ScrolledLinesOverlay
      title={`${report.title} · Esc closes`}
      lines={lines}
      width={width}
      height={height}
      offset={offset}
    />
  );
}

function KeysOverlay({ commands, width, height, offset, keymap, mcp }: Omit<HelpOverlayProps, 'report'>) {
  const inner = innerSize(width, height);
  const columnCount = Math.max(1, Math.min(3, Math.floor(inner.width / 56)));
  const columnWidth = Math.floor(inner.width / columnCount);
  const keyLines = useMemo(() => helpLines(commands, columnWidth - 1, keymap), [commands, columnWidth, keymap]);
  // Servers come and go while the overlay is open: read them at every render. They follow the commands.
  const afterCommands = keyLines.findIndex((line) => line.length === 0) + 1;
  const lines = mcp
    ? [
        ...keyLines.slice(0, afterCommands),
        ...mcpHelpLines(mcp.statuses(), columnWidth - 1),
        ...keyLines.slice(afterCommands),
      ]
    : keyLines;
  const columns = helpColumns(lines, columnCount);
  const rows = Math.max(...columns.map((c) => c.length));
  const top = Math.max(0, Math.min(offset, rows - inner.height));
  return (
    <PaneFrame
      title="keys · Esc or ? closes"
      note={rows > inner.height ? `${top + 1}-${Math.min(rows, top + inner.height)} of ${rows}` : undefined}
      width={width}
      height={height}
      focused
    >
      <Box flexDirection="row">
        {columns.map((column, c) => (
          <Box key={c} flexDirection="column" width={columnWidth} flexShrink={0}>
            {column.slice(top, top + inner.height).map((line, i) => (
              <StyledLine key={i} line={truncateLine(line, columnWidth - 1)} />
            ))}
          </Box>
        ))}
      </Box>
    </PaneFrame>
  );
}
