/** getopt-style splitting of arguments into options and positionals, and option matching. */
import type { Word } from '../shell/syntax';
import { includes, mayBeOption } from './words';

interface ParsedOption {
  readonly name: string;
  readonly value?: Word;
  /** Index of the word the option came from. */
  readonly index: number;
}

export interface ParsedArgs {
  readonly options: ParsedOption[];
  readonly positionals: Word[];
  readonly afterDoubleDash: Word[];
  /** Words that may expand into options. */
  readonly dynamic: Word[];
  readonly all: readonly Word[];
}

/** getopt-style split: `-rf` is `-r -f`, `-ofile` and `--out=file` carry values, `--` ends options. */
export function splitArgs(args: readonly Word[], valueOptions: readonly string[]): ParsedArgs {
  const parsed: ParsedArgs = { options: [], positionals: [], afterDoubleDash: [], dynamic: [], all: args };
  let ended = false;
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    const t = w.text;
    if (ended) {
      parsed.positionals.push(w);
      parsed.afterDoubleDash.push(w);
    } else if (mayBeOption(w)) {
      parsed.dynamic.push(w);
      parsed.positionals.push(w);
    } else if (t === '--') ended = true;
    else if (t.startsWith('--')) i += splitLongOption(args, i, valueOptions, parsed);
    else if (t.startsWith('-') && t.length > 1) i += splitShortOptions(args, i, valueOptions, parsed);
    else parsed.positionals.push(w);
  }
  return parsed;
}

function splitLongOption(
  args: readonly Word[],
  i: number,
  valueOptions: readonly string[],
  parsed: ParsedArgs,
): number {
  const w = args[i]!;
  const eq = w.text.indexOf('=');
  const name = eq < 0 ? w.text : w.text.slice(0, eq);
  if (eq >= 0) {
    parsed.options.push({ name, value: { ...w, text: w.text.slice(eq + 1) }, index: i });
    return 0;
  }
  const takesValue = optionIs(name, valueOptions) && i + 1 < args.length;
  parsed.options.push({ name, value: takesValue ? args[i + 1] : undefined, index: i });
  return takesValue ? 1 : 0;
}

function splitShortOptions(
  args: readonly Word[],
  i: number,
  valueOptions: readonly string[],
  parsed: ParsedArgs,
): number {
  const w = args[i]!;
  if (includes(valueOptions, w.text)) {
    parsed.options.push({ name: w.text, value: args[i + 1], index: i });
    return args[i + 1] ? 1 : 0;
  }
  for (let j = 1; j < w.text.length; j++) {
    const name = `-${w.text[j]}`;
    if (!includes(valueOptions, name)) {
      parsed.options.push({ name, index: i });
      continue;
    }
    const attached = w.text.slice(j + 1);
    parsed.options.push({ name, value: attached ? { ...w, text: attached } : args[i + 1], index: i });
    return attached || !args[i + 1] ? 0 : 1;
  }
  return 0;
}

/** Exact, or an unambiguous-looking abbreviation of a long option (`--forc` for `--force`). */
export function optionIs(name: string, list: readonly string[]): boolean {
  return list.some(
    (option) => option === name || (name.startsWith('--') && name.length > 2 && option.startsWith(name)),
  );
}

export function flagMatches(
  name: string,
  flag: { readonly short?: string; readonly long?: readonly string[] },
): boolean {
  if (flag.short && /^-[^-]$/.test(name) && flag.short.includes(name[1]!)) return true;
  return name.startsWith('--') && flag.long !== undefined && optionIs(name, flag.long);
}
