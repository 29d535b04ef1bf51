/** Small makers for the corpus's cases, so that each case reads as the attack it is. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type AttackCase, type AttackClass, fill } from './attack-case';
import type { World } from './world';

/** A bash call. */
export function sh(
  cls: AttackClass,
  id: string,
  what: string,
  command: string,
  more: Partial<Omit<AttackCase, 'id' | 'cls' | 'what' | 'args'>> = {},
): AttackCase {
  return { id, cls, what, tool: 'bash', args: { command }, ...more };
}

/** A call of another tool. */
export function call(
  cls: AttackClass,
  id: string,
  what: string,
  tool: string,
  args: Record<string, unknown>,
  more: Partial<Omit<AttackCase, 'id' | 'cls' | 'what' | 'args' | 'tool'>> = {},
): AttackCase {
  return { id, cls, what, tool, args, ...more };
}

/** Writes files (placeholders filled) under the case's folder `c/<id>/` of the workspace. */
export function files(entries: Record<string, string>): (world: World, caseDir: string) => void {
  return (world, caseDir) => {
    const id = caseDir.split('/').pop()!;
    for (const [name, text] of Object.entries(entries)) {
      const file = join(caseDir, name);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, fill(text, world, id));
    }
  };
}

/** Text that runs a command when bash evaluates it arithmetically (an array subscript). */
export const ARITH_PAYLOAD = 'a[$(touch {OUT}/{ID})]';

/** The case's folder as a command sees it (relative to the workspace root). */
export function dirOf(id: string): string {
  return `c/${id}`;
}
