import { costText, FILL_ALERT, fillShare, fillText } from './live-cost';
import type { LiveCost } from './use-live-cost';

/**
 * What the status bar says of the usage pane when that pane is off screen: the session's cost
 * (`~` while a call's estimate is in it) and the context fill; an alert when the window is nearly full.
 */
export function statusUsage(cost: LiveCost): { text: string; alert: boolean } {
  const parts = [costText(cost.session)];
  if (cost.fill) parts.push(`ctx ${fillText(cost.fill)}`);
  return { text: parts.join(' · '), alert: cost.fill !== null && (fillShare(cost.fill) ?? 0) >= FILL_ALERT };
}
