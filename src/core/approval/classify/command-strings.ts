/** Text that a command runs as a command line (`bash -c`, `xargs sh -c`, `watch`). */
import type { Word } from '../shell/syntax';
import { type Ctx, deeper } from './context';
import { type Finding, destructive } from './findings';

export function classifyCommandString(w: Word, ctx: Ctx, via: string): Finding[] {
  if (w.expands) return [destructive(`\`${via}\` runs a command string only known when it runs (\`${w.text}\`)`)];
  return ctx.walk.line(w.text, deeper(ctx));
}

export function classifyJoined(name: string, command: readonly Word[], ctx: Ctx): Finding[] {
  if (command.some((w) => w.expands)) return [destructive(`\`${name}\` runs a command only known when it runs`)];
  return ctx.walk.line(command.map((w) => w.text).join(' '), deeper(ctx));
}
