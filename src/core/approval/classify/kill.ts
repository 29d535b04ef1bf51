/**
 * `kill`: Destructive when it kills without warning (`-9`) or when its target is broad or unknown:
 * `-1` (every process the user owns), `0` or `-PGID` (a whole process group, tole's own with `0`),
 * or a pid only known when it runs (`$PPID` is tole).
 */
import type { Word } from '../shell/syntax';
import { type Finding, destructive, readOnly, write } from './findings';

const KILL_SIGNALS = new Set(['9', 'kill', 'sigkill']);

export function classifyKill(args: readonly Word[]): Finding[] {
  const findings: Finding[] = [];
  let i = 0;
  for (; i < args.length; i++) {
    const w = args[i]!;
    const t = w.text;
    if (w.expands) break;
    if (t === '--') {
      i++;
      break;
    }
    if (t === '-l' || t === '-L' || t === '--list' || t === '--table')
      return [readOnly('`kill -l` only lists signals', 'kill')];
    if (t === '-s' || t === '-n' || t === '--signal') {
      const signal = args[i + 1];
      if (signal && (signal.expands || KILL_SIGNALS.has(signal.text.toLowerCase())))
        findings.push(destructive('`kill -9` kills a process without letting it save its work'));
      i++;
      continue;
    }
    // `-TERM`, `-9`, `-SIGKILL`: a signal only before the first target.
    if (/^-[A-Za-z0-9+]+$/.test(t) && i === 0) {
      if (KILL_SIGNALS.has(t.slice(1).toLowerCase()))
        findings.push(destructive('`kill -9` kills a process without letting it save its work'));
      continue;
    }
    break;
  }
  const targets = args.slice(i);
  for (const target of targets) {
    if (target.expands || target.glob)
      return [
        ...findings,
        destructive(`\`kill ${target.text}\` signals a process only known when it runs (\`$PPID\` is tole)`),
      ];
    if (/^-/.test(target.text) || /^0+$/.test(target.text))
      return [
        ...findings,
        destructive(`\`kill ${target.text}\` signals a whole process group, or every process you own with \`-1\``),
      ];
  }
  findings.push(write('`kill` signals a process'));
  return findings;
}
