/**
 * Words that may name a path outside the workspace: `~/.ssh/id_rsa`, `$HOME/.aws`, `/etc/x`,
 * `../.npmrc`, a link the repository ships (`keys -> ../.ssh`), a glob matching one, any relative
 * path after a `cd` (where it lands is not followed), `cd` alone (the home), and the options that
 * make a recursive reader follow links. Where no sandbox confines a ReadOnly command, one such word
 * makes it wait for a key (tools/builtin/bash.ts): the user's credentials live outside the
 * workspace, and a command's output goes to the provider. The sandbox hides them instead.
 */
import type { Word } from '../shell/syntax';
import type { Ctx } from './context';
import type { Finding } from './findings';
import { wordCandidates } from './known-values';

/** Markers known-values.ts puts in for the user's own variables; PWD is the workspace. */
const PWD_MARK = '/\u2039PWD\u203a';
const OUTSIDE_MARKS = ['\u2039HOME\u203a', '\u2039TMPDIR\u203a'];

/** Options by which a reader follows links while it walks a tree. */
const FOLLOWS_LINKS: Readonly<Record<string, RegExp>> = {
  grep: /^(-[a-zA-Z]*R|--dereference-recursive$)/,
  egrep: /^(-[a-zA-Z]*R|--dereference-recursive$)/,
  fgrep: /^(-[a-zA-Z]*R|--dereference-recursive$)/,
  rg: /^(-[a-zA-Z]*L|--follow$)/,
  ag: /^(-[a-zA-Z]*f|--follow$)/,
  fd: /^(-[a-zA-Z]*L|--follow$)/,
  find: /^(-L|-H|-follow)$/,
  tree: /^-[a-zA-Z]*l/,
  du: /^(-[a-zA-Z]*L|--dereference$)/,
  ls: /^(-[a-zA-Z]*L|--dereference$)/,
  tar: /^(-[a-zA-Z]*h|--dereference$)/,
};

const outside = (text: string, why: string): Finding => ({
  risk: 'ReadOnly',
  reason: `\`${text}\` ${why}`,
  outside: text,
});

/** The findings for one simple command's argument words and redirection targets. */
export function outsideFindings(name: string, args: readonly Word[], targets: readonly Word[], ctx: Ctx): Finding[] {
  const findings: Finding[] = [];
  if ((name === 'cd' || name === 'pushd') && args.every((w) => w.text.startsWith('-')))
    findings.push(outside(name, 'goes to your home directory, outside the workspace'));
  const follows = Object.hasOwn(FOLLOWS_LINKS, name) ? FOLLOWS_LINKS[name] : undefined;
  const link = follows ? args.find((w) => follows.test(w.text)) : undefined;
  if (link) findings.push(outside(`${name} ${link.text}`, 'follows links, which may lead outside the workspace'));
  for (const w of [...args, ...targets]) {
    const found = wordOutside(w, ctx);
    if (found) findings.push(found);
  }
  return findings;
}

function wordOutside(w: Word, ctx: Ctx): Finding | undefined {
  if (w.substitutions.length > 0 || w.processSubstitution) return undefined; // Write already
  const candidates = wordCandidates(w, ctx.state.values, ctx.depth) ?? [w.text];
  for (const value of candidates) {
    for (const piece of [value, ...value.split(/[=:,]/).slice(1)]) {
      if (pieceLeaves(piece, w, ctx)) return outside(w.text, 'may name a path outside the workspace');
    }
  }
  return undefined;
}

function pieceLeaves(piece: string, w: Word, ctx: Ctx): boolean {
  if (piece === '' || piece === '-') return false;
  if (piece.startsWith('~') || OUTSIDE_MARKS.some((mark) => piece.includes(mark))) return true;
  let text = piece;
  if (text.startsWith(PWD_MARK)) text = `.${text.slice(PWD_MARK.length)}`;
  // Devices and /proc: inert-words.ts decides (an inert device passes, another process is Write).
  if (text === '/dev' || text.startsWith('/dev/') || text === '/proc' || text.startsWith('/proc/')) return false;
  const glob = w.glob && /[*?[]/.test(text);
  if (text.startsWith('/')) return ctx.leaves(text, glob);
  // After a `cd`, a relative path is relative to a folder tole does not follow.
  if (ctx.state.cwdUnknown) return true;
  // Option-like words are read as paths only where they hold a path's marks.
  if (text.startsWith('-') && !text.includes('/')) return false;
  return ctx.leaves(text, glob);
}
