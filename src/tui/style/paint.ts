import chalk, { type ChalkInstance } from 'chalk';
import type { TextStyle } from './styles';

function colour(base: ChalkInstance, value: string, background: boolean): ChalkInstance {
  if (value.startsWith('#')) return background ? base.bgHex(value) : base.hex(value);
  const ansi = /^ansi256\(\s?(\d+)\s?\)$/.exec(value);
  if (ansi) return background ? base.bgAnsi256(Number(ansi[1])) : base.ansi256(Number(ansi[1]));
  const rgb = /^rgb\(\s?(\d+),\s?(\d+),\s?(\d+)\s?\)$/.exec(value);
  if (rgb)
    return background
      ? base.bgRgb(Number(rgb[1]), Number(rgb[2]), Number(rgb[3]))
      : base.rgb(Number(rgb[1]), Number(rgb[2]), Number(rgb[3]));
  const name = background ? `bg${value[0]!.toUpperCase()}${value.slice(1)}` : value;
  return (base as unknown as Record<string, ChalkInstance>)[name] ?? base;
}

/**
 * A style as a chalk painter. A line is painted into one string and handed to Ink as one text
 * node: a few hundred nested `<Text>` nodes per frame cost Ink far more than the escape codes.
 */
export function painter(style: TextStyle): (text: string) => string {
  let paint: ChalkInstance = chalk;
  if (style.color) paint = colour(paint, style.color, false);
  if (style.backgroundColor) paint = colour(paint, style.backgroundColor, true);
  if (style.bold) paint = paint.bold;
  if (style.dimColor) paint = paint.dim;
  if (style.italic) paint = paint.italic;
  if (style.underline) paint = paint.underline;
  if (style.inverse) paint = paint.inverse;
  return (text) => paint(text);
}
