/** What the classifier finds about each part of a line, and how the findings decide the risk. */
import { INERT_READERS } from '../command-rules';
import { RISK_ORDER, type Risk, type RiskAssessment } from '../risk';

export interface Finding {
  readonly risk: Risk;
  readonly reason: string;
  /** For ReadOnly findings: the command that only reads. */
  readonly reader?: string;
  /** For Write findings: it runs code tole cannot see into (a script, `python3 -c`, a Makefile). */
  readonly opaque?: true;
  /** A word that may name a path outside the workspace (outside-paths.ts): ReadOnly, but noted. */
  readonly outside?: string;
}

export const readOnly = (reason: string, reader: string): Finding => ({ risk: 'ReadOnly', reason, reader });
export const write = (reason: string): Finding => ({ risk: 'Write', reason });
export const opaqueWrite = (reason: string): Finding => ({ risk: 'Write', reason, opaque: true });
export const destructive = (reason: string): Finding => ({ risk: 'Destructive', reason });
export const unparseable = (detail: string): Finding =>
  destructive(`the command cannot be parsed, so it is treated as Destructive: ${detail}`);

export function decide(findings: readonly Finding[]): RiskAssessment {
  let top: Finding | undefined;
  const decisive = findings.filter((f) => f.outside === undefined);
  for (const f of decisive) if (!top || RISK_ORDER[f.risk] > RISK_ORDER[top.risk]) top = f;
  const outside = findings.find((f) => f.outside !== undefined);
  if (!top) return { risk: 'ReadOnly', reason: 'the command does nothing', ...readsOutside(outside) };
  if (top.risk === 'Write') {
    const opaque = findings.find((f) => f.risk === 'Write' && f.opaque);
    return opaque ? { risk: 'Write', reason: opaque.reason, opaque: true } : { risk: 'Write', reason: top.reason };
  }
  if (top.risk !== 'ReadOnly') return { risk: top.risk, reason: top.reason };
  const readers = [...new Set(findings.flatMap((f) => (f.reader ? [f.reader] : [])))];
  const unvetted = readers.find((r) => !INERT_READERS.has(r.split(' ')[0]!));
  const mark = { ...(unvetted === undefined ? {} : { unvettedReader: unvetted }), ...readsOutside(outside) };
  if (readers.length < 2) return { risk: 'ReadOnly', reason: top.reason, ...mark };
  return { risk: 'ReadOnly', reason: `${readers.map((r) => `\`${r}\``).join(', ')} only read`, ...mark };
}

function readsOutside(finding: Finding | undefined): { readsOutside?: string } {
  return finding ? { readsOutside: finding.reason } : {};
}

export function optional(finding: Finding | undefined): Finding[] {
  return finding ? [finding] : [];
}
