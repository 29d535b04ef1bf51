/** git configuration that names a program (`git -c core.pager=…`, `git config alias.x '!…'`). */
import { GIT_GLOBAL_OPTIONS } from '../command-rules';
import type { Word } from '../shell/syntax';
import type { ParsedArgs } from './arg-split';
import { classifyCommandString } from './command-strings';
import type { Ctx } from './context';
import { type Finding, destructive } from './findings';

function isSafeGitConfigKey(key: string): boolean {
  const lower = key.toLowerCase();
  return GIT_GLOBAL_OPTIONS.safeConfigKeys.some((k) => (k.endsWith('.') ? lower.startsWith(k) : lower === k));
}

export function gitConfigFindings(value: Word): Finding[] {
  if (value.expands) return [destructive(`\`git -c ${value.text}\` sets configuration only known when it runs`)];
  const key = value.text.split('=')[0]!;
  return isSafeGitConfigKey(key)
    ? []
    : [destructive(`\`git -c ${key}\` can make git run a program named on the command line`)];
}

/** `git config alias.x '!rm -rf x'`: the value of a key that names a program is a command line. */
export function gitConfigValueFindings(parsed: ParsedArgs, ctx: Ctx): Finding[] {
  const positionals = parsed.positionals[0]?.text === 'set' ? parsed.positionals.slice(1) : parsed.positionals;
  const [key, value] = positionals;
  if (!key || !value || isSafeGitConfigKey(key.text)) return [];
  return classifyCommandString({ ...value, text: value.text.replace(/^!/, '') }, ctx, `git config ${key.text}`);
}
