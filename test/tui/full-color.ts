import chalk from 'chalk';
import { afterAll, beforeAll } from 'vitest';

/**
 * The file's tests see chalk at full colour (level 3), whatever terminal runs them, so their frames
 * hold the theme's colour codes; the level is put back after the file.
 */
export function inFullColor(): void {
  const level = chalk.level;
  beforeAll(() => {
    chalk.level = 3;
  });
  afterAll(() => {
    chalk.level = level;
  });
}
