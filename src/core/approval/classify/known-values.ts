/**
 * The values of variables tole knows before a line runs, so that a path built from them (`a=/pr;
 * b=oc/1/environ; cat $a$b`) is checked as the path it becomes, and one built from a value only
 * known when it runs (`read p < f; cat $p`, `cat $1`, `cat ~-/environ`) is not taken for inert.
 *
 * Each bash call is a fresh `bash -c` (tools/builtin/bash.ts): nothing set by an earlier call
 * survives. Known are: a variable the line sets exactly once, by a plain assignment or a `for`
 * list of literal words, in a pipeline that surely runs in the line's own shell (parser: `sure`),
 * read after that; and a few of the user's own variables (HOME, PWD, TMPDIR, USER, LOGNAME) the
 * line never sets in any way. Inside a string bash evaluates again (`bash -c '…'`, `eval '…'`)
 * nothing is known: it runs in another shell, or at a point tole does not follow.
 */
import type { Command, Script, SimpleCommand, Word, WordPiece } from '../shell/syntax';

export interface LineValues {
  /** How many places in the line set each variable, in any way. */
  readonly setSites: ReadonlyMap<string, number>;
  /** The line may set any variable (`eval`, `source`, `trap`, `IFS`, a nameref …). */
  readonly anything: boolean;
  /** What each known variable may hold, once the walk has passed the place that sets it. */
  readonly known: Map<string, readonly string[]>;
}

/**
 * The user's own variables, read as one path part that is not `/proc`: what they hold is the
 * user's, never the repository's or the model's, as long as the line does not set them.
 */
const TRUSTED: Readonly<Record<string, string>> = {
  HOME: '/\u2039HOME\u203a',
  PWD: '/\u2039PWD\u203a',
  TMPDIR: '/\u2039TMPDIR\u203a',
  USER: '\u2039USER\u203a',
  LOGNAME: '\u2039LOGNAME\u203a',
};

/** Builtins after which any variable may hold anything. */
const SETS_ANYTHING = new Set(['eval', 'source', '.', 'trap', 'alias', 'shopt', 'enable', 'let', 'complete']);
/** Builtins whose arguments name variables they set. */
const SETTERS = new Set([
  'read',
  'mapfile',
  'readarray',
  'printf',
  'getopts',
  'wait',
  'unset',
  'export',
  'declare',
  'typeset',
  'local',
  'readonly',
  'for',
  'select',
]);
/** `declare -n r=x` makes `r=…` set `x`: with any option, these may set anything. */
const DECLARERS = new Set(['declare', 'typeset', 'local', 'readonly', 'export']);
const NAME_ARG = /^([A-Za-z_][A-Za-z0-9_]*)(?:\+?=|\[|$)/;
/** `${x:=v}` and `${x=v}` set `x` while expanding. */
const ASSIGNING_EXPANSION = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?:\[[^\]]*\])?:?=/g;
/** Most values one word may take before tole stops listing them. */
const MAX_CANDIDATES = 64;

export function lineValues(script: Script): LineValues {
  const setSites = new Map<string, number>();
  let anything = false;
  const set = (name: string) => {
    setSites.set(name, (setSites.get(name) ?? 0) + 1);
  };
  const inWord = (w: Word) => {
    for (const m of w.text.matchAll(ASSIGNING_EXPANSION)) set(m[1]!);
    w.substitutions.forEach(walkScript);
  };
  const walkSimple = (c: SimpleCommand) => {
    for (const a of c.assignments) {
      set(a.name);
      inWord(a.value);
    }
    c.words.forEach(inWord);
    for (const r of c.redirects) {
      if (r.fdName !== undefined) set(r.fdName);
      inWord(r.target);
      r.heredoc?.substitutions.forEach(walkScript);
    }
    const wrapped = c.words[0]?.text === 'command' || c.words[0]?.text === 'builtin' ? 1 : 0;
    const name = c.words[wrapped]?.text ?? '';
    const args = c.words.slice(wrapped + 1);
    if (SETS_ANYTHING.has(name)) anything = true;
    if (DECLARERS.has(name) && args.some((w) => w.text.startsWith('-') || w.text.startsWith('+'))) anything = true;
    if (SETTERS.has(name)) {
      for (const w of args) {
        const m = NAME_ARG.exec(w.text);
        if (m) set(m[1]!);
      }
    }
    if (name === 'cd' || name === 'pushd' || name === 'popd') {
      set('PWD');
      set('OLDPWD');
    }
  };
  const walkCommand = (c: Command): void => {
    if (c.kind === 'simple') walkSimple(c);
    else if (c.kind === 'group') {
      walkScript(c.body);
      for (const r of c.redirects) inWord(r.target);
    } else walkCommand(c.body);
  };
  function walkScript(s: Script): void {
    for (const p of s.pipelines) p.commands.forEach(walkCommand);
  }
  walkScript(script);
  // A changed IFS splits a known value into pieces tole did not check (`x=a/proc/1/environ; IFS=a`).
  if (setSites.has('IFS')) anything = true;
  return { setSites, anything, known: new Map() };
}

/** What `name` may hold where the walk is now, or undefined when only the run knows. */
function valuesOf(name: string, values: LineValues | undefined, depth: number): readonly string[] | undefined {
  if (values === undefined || values.anything || depth > 0) return undefined;
  const known = values.known.get(name);
  if (known !== undefined) return known;
  const trusted = TRUSTED[name];
  return trusted !== undefined && !values.setSites.has(name) ? [trusted] : undefined;
}

/**
 * The texts a word may become, its known expansions put in (every combination), or undefined when
 * one of them is only known when it runs: `$x` and `${x}` of a variable tole does not know, any
 * other `${…}` form, `$1`, `$@`, `$_` and the like, and `~+`, `~-`, `~N` (the directory stack).
 * An unquoted leading `~` is `$HOME`.
 */
export function wordCandidates(w: Word, values: LineValues | undefined, depth: number): string[] | undefined {
  const pieces = piecesOf(w);
  if (pieces === undefined) return w.expands ? undefined : [w.text];
  let results = [''];
  for (const [index, piece] of pieces.entries()) {
    let options: readonly string[] = [piece.text];
    if (piece.kind === 'expansion') {
      const name = /^\$(?:([A-Za-z_][A-Za-z0-9_]*)|\{([A-Za-z_][A-Za-z0-9_]*)\})$/.exec(piece.text);
      const known = name ? valuesOf((name[1] ?? name[2])!, values, depth) : undefined;
      if (known === undefined) return undefined;
      options = known;
    } else if (piece.kind === 'unquoted') {
      // `~-` is $OLDPWD, `~+` $PWD, `~2` the directory stack; also after `=` or `:` (`x=~-/a`).
      if (/(?:^|[=:])~[+-]|^~\d/.test(piece.text) && (index === 0 || !piece.text.startsWith('~'))) return undefined;
      if (index === 0 && /^~(?:\/|$)/.test(piece.text)) {
        const home = valuesOf('HOME', values, depth);
        if (home === undefined) return undefined;
        options = home.map((h) => h + piece.text.slice(1));
      }
    }
    if (results.length * options.length > MAX_CANDIDATES) return undefined;
    results = results.flatMap((r) => options.map((o) => r + o));
  }
  return results;
}

/**
 * The word's pieces, matched to its text: an assignment's value is the word less its literal
 * `NAME=`, cut off the front here. Undefined when they do not match (a word the caller made).
 */
function piecesOf(w: Word): WordPiece[] | undefined {
  if (w.pieces === undefined) return undefined;
  const pieces = [...w.pieces];
  let extra = pieces.reduce((n, p) => n + p.text.length, 0) - w.text.length;
  while (extra > 0 && pieces[0]?.kind === 'unquoted') {
    const first = pieces[0];
    if (first.text.length > extra) {
      pieces[0] = { kind: 'unquoted', text: first.text.slice(extra) };
      extra = 0;
    } else {
      extra -= first.text.length;
      pieces.shift();
    }
  }
  return extra === 0 && pieces.map((p) => p.text).join('') === w.text ? pieces : undefined;
}

/**
 * Records what a command that surely runs in the line's own shell sets: `x=v` alone (no command
 * after it), or `for x in a b c`, when that is the only place the line sets `x`. Every value is
 * itself read through wordCandidates, so `d=$HOME/src` is known and `d=$p` is not.
 */
export function recordDefinitions(c: SimpleCommand, values: LineValues | undefined, depth: number): void {
  if (values === undefined || values.anything || depth > 0) return;
  const once = (name: string) => values.setSites.get(name) === 1;
  if (c.words.length === 0) {
    for (const a of c.assignments) {
      if (!once(a.name) || a.append || a.value.text.startsWith('(')) continue;
      const options = wordCandidates(a.value, values, depth);
      if (options !== undefined) values.known.set(a.name, options);
    }
    return;
  }
  const [first, name, keyword, ...list] = c.words;
  if (first?.text !== 'for' || !first.plain || name === undefined || !once(name.text)) return;
  if (keyword?.text !== 'in' || list.length === 0) return;
  const options: string[] = [];
  for (const w of list) {
    const texts = wordCandidates(w, values, depth);
    if (texts === undefined || options.length + texts.length > MAX_CANDIDATES) return;
    options.push(...texts);
  }
  if (options.length > 0) values.known.set(name.text, options);
}
