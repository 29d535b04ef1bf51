import { useEffect, useState } from 'react';

/** A counter that ticks every `intervalMs` while `active`, to redraw clocks and spinners; still otherwise. */
export function useTicker(active: boolean, intervalMs: number): number {
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setTick((n) => n + 1), intervalMs);
    return () => clearInterval(timer);
  }, [active, intervalMs]);
  return tick;
}
