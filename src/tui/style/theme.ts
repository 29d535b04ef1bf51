import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { foregroundColorNames } from 'chalk';
import type { z } from 'zod';
import { lazySchema } from '../../core/lazy';
import dark from '../../../themes/dark.json';
import highContrast from '../../../themes/high-contrast.json';
import light from '../../../themes/light.json';

/**
 * A theme is data: `themes/*.json` names a colour for each role on screen. The code decides
 * which role a thing plays (a diff line, the danger of a Destructive call); the theme decides
 * its colour. `NO_COLOR` drops every colour and keeps only bold, dim and inverse.
 */

const colourPattern =
  /^(#[0-9a-fA-F]{3}|#[0-9a-fA-F]{6}|ansi256\(\s?\d{1,3}\s?\)|rgb\(\s?\d{1,3},\s?\d{1,3},\s?\d{1,3}\s?\))$/;

const PALETTE_KEYS = [
  'text',
  'muted',
  'accent',
  'border',
  'borderFocused',
  'user',
  'assistant',
  'tool',
  'riskReadOnly',
  'riskWrite',
  'danger',
  'ok',
  'warn',
  'error',
  'diffAdd',
  'diffRemove',
  'diffHunk',
  'code',
  'codeBlock',
  'heading',
  'pathHighlight',
  'head',
  'selectionBackground',
  'statusBackground',
  'statusText',
] as const;

export type PaletteKey = (typeof PALETTE_KEYS)[number];

/** Built on first use: when a theme is checked. */
const themeSchema = lazySchema((z) => {
  const colour = z
    .string()
    .refine((value) => (foregroundColorNames as readonly string[]).includes(value) || colourPattern.test(value), {
      message: 'expected a colour: a name such as "red" or "cyanBright", "#rrggbb", "ansi256(n)" or "rgb(r,g,b)"',
    });
  const paletteShape = Object.fromEntries(PALETTE_KEYS.map((key) => [key, colour])) as Record<
    PaletteKey,
    typeof colour
  >;
  return z
    .object({
      name: z.string().min(1),
      palette: z.object(paletteShape).strict(),
    })
    .strict();
});

export type Theme = z.infer<ReturnType<typeof themeSchema>>;

export class ThemeError extends Error {
  override readonly name = 'ThemeError';
  readonly kind = 'theme';
}

const BUILT_IN: Readonly<Record<string, unknown>> = { dark, light, 'high-contrast': highContrast };

export const BUILT_IN_THEMES: readonly string[] = Object.keys(BUILT_IN);

/** Checks a parsed theme; the error names the file and the first field that is wrong. */
export function parseTheme(data: unknown, source: string): Theme {
  const result = themeSchema().safeParse(data);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.length > 0 ? issue.path.join('.') : '(top level)';
  throw new ThemeError(`theme ${source}: ${field}: ${issue.message}`);
}

/** A built-in theme by name (`dark`, `light`, `high-contrast`), or a theme file by path. */
export function loadTheme(nameOrPath: string): Theme {
  const builtIn = BUILT_IN[nameOrPath];
  // tole's own themes ship checked (a test parses each), so opening a session builds no schema for them.
  if (builtIn !== undefined) return builtIn as Theme;
  if (!nameOrPath.includes('/') && !nameOrPath.endsWith('.json')) {
    throw new ThemeError(
      `theme "${nameOrPath}" is not a built-in theme (${BUILT_IN_THEMES.join(', ')}) nor a path to a .json file`,
    );
  }
  let text: string;
  try {
    text = readFileSync(nameOrPath, 'utf8');
  } catch (error) {
    throw new ThemeError(
      `theme ${nameOrPath}: cannot read it (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    );
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new ThemeError(`theme ${basename(nameOrPath)}: not valid JSON (${(error as Error).message})`);
  }
  return parseTheme(data, nameOrPath);
}
