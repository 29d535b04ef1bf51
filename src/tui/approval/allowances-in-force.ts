import type { SessionAllowance } from '../input/key-handler';
import { visibleRow } from '../text/visible-text';

/** The status bar's words for what approves calls without asking; null when only keys do. */
export function allowancesInForce(policy: SessionAllowance | null): string | null {
  const now = policy?.inForce?.();
  if (!now) return null;
  const parts: string[] = [];
  if (now.yes) parts.push('--yes');
  if (now.rules.length > 0) parts.push(`allow ${now.rules.join(', ')}`);
  if (now.sessionTools.length > 0) parts.push(`session allows ${now.sessionTools.join(', ')}`);
  if ((now.prefixes ?? []).length > 0) parts.push(`prefixes ${now.prefixes!.join(', ')}`);
  return parts.length > 0 ? visibleRow(parts.join(' · ')) : null;
}
