/**
 * Command prefixes the user allows for a session (`p` at the approval box): `npm test`,
 * `cargo build`. A prefix is words, never text: it covers a command line only when the parser
 * reads every command the line runs, anywhere in it (lists, pipes, groups, substitutions), as a
 * simple command whose first words are exactly the prefix's, written literally, with no variable
 * set before it. So `npm test; rm -rf x`, `npm test $(curl …)`, `FOO=1 npm test`,
 * `npm() { …; }; npm test` and a line that does not parse are never covered.
 *
 * Words alone do not make a command safe (`npm test` runs whatever package.json says, and its
 * later words are the model's), so the policy honours a prefix only where the sandbox confines
 * the call it approves, and never for a Destructive call (see ApprovalPolicy).
 */
import { INTERPRETERS, SHELLS, WRAPPERS } from './command-rules';
import { includes } from './classify/words';
import { parseShell } from './shell/parser';
import type { Command, Script, SimpleCommand, Word } from './shell/syntax';

/** A word that can name a subcommand (`test`, `run`, `build:prod`), not an option, path or value. */
const SUBCOMMAND = /^[a-z][a-z0-9:._-]*$/;
/** A command name: no path (a file the model can rewrite), no expansion. */
const COMMAND_NAME = /^[A-Za-z_][A-Za-z0-9._+-]*$/;
/** Commands that run other commands or code they are given (a prefix of them would approve anything), and shell keywords. */
const RUNNERS = new Set([
  'eval',
  'exec',
  'source',
  '.',
  'command',
  'builtin',
  'sudo',
  'doas',
  'su',
  'env',
  'xargs',
  'for',
  'select',
  'case',
  'function',
  'coproc',
]);

type PrefixProposal =
  | { readonly ok: true; readonly prefix: readonly string[] }
  | { readonly ok: false; readonly why: string };

/** The prefix `p` offers for a command line, or why it offers none. */
export function proposePrefix(line: string): PrefixProposal {
  const parsed = parseShell(line);
  if (!parsed.ok) return { ok: false, why: `tole cannot read the command (${parsed.error})` };
  const first = firstSimple(parsed.script);
  if (!first || first.words.length === 0) return { ok: false, why: 'the line runs no plain command' };
  if (first.assignments.length > 0)
    return { ok: false, why: 'the command sets variables before it runs, which a prefix cannot cover' };
  const name = first.words[0]!;
  if (!isLiteral(name) || !COMMAND_NAME.test(name.text))
    return { ok: false, why: `\`${name.text}\` is not a command name written out (a path or an expansion)` };
  const second = first.words[1];
  const prefix = second && isLiteral(second) && SUBCOMMAND.test(second.text) ? [name.text, second.text] : [name.text];
  if (runsAnything(name.text))
    return { ok: false, why: `\`${name.text}\` runs whatever it is given, so a prefix of it would allow any code` };
  if (!prefixCovers(prefix, line))
    return {
      ok: false,
      why: `the line runs more than \`${prefix.join(' ')}\` (a prefix covers a line only when every command in it starts so)`,
    };
  return { ok: true, prefix };
}

/** Whether every command `line` runs starts with `prefix`, word for word (see the file's note). */
export function prefixCovers(prefix: readonly string[], line: string): boolean {
  if (prefix.length === 0) return false;
  const parsed = parseShell(line);
  if (!parsed.ok) return false;
  const commands = simpleCommands(parsed.script);
  return commands !== null && commands.length > 0 && commands.every((c) => startsWith(c, prefix));
}

function runsAnything(name: string): boolean {
  const lower = name.toLowerCase();
  return (
    RUNNERS.has(lower) || Object.hasOwn(WRAPPERS, lower) || includes(SHELLS, lower) || includes(INTERPRETERS, lower)
  );
}

function isLiteral(word: Word): boolean {
  return word.plain && !word.expands && !word.glob && word.substitutions.length === 0 && !word.evaluates;
}

function startsWith(command: SimpleCommand, prefix: readonly string[]): boolean {
  if (command.assignments.length > 0 || command.words.length < prefix.length) return false;
  return prefix.every((text, i) => isLiteral(command.words[i]!) && command.words[i]!.text === text);
}

function firstSimple(script: Script): SimpleCommand | undefined {
  const command = script.pipelines[0]?.commands[0];
  return command?.kind === 'simple' ? command : undefined;
}

/** Every simple command the script runs, substitutions included; null when it defines a function. */
function simpleCommands(script: Script): SimpleCommand[] | null {
  const out: SimpleCommand[] = [];
  const visitScript = (s: Script): boolean => s.pipelines.every((p) => p.commands.every(visitCommand));
  const visitWords = (words: readonly Word[]): boolean => words.every((w) => w.substitutions.every(visitScript));
  const visitCommand = (command: Command): boolean => {
    switch (command.kind) {
      case 'function':
        return false;
      case 'group':
        return visitScript(command.body) && visitRedirects(command.redirects);
      case 'simple':
        out.push(command);
        return (
          visitWords(command.words) &&
          visitWords(command.assignments.map((a) => a.value)) &&
          visitRedirects(command.redirects)
        );
    }
  };
  const visitRedirects = (redirects: SimpleCommand['redirects']): boolean =>
    redirects.every(
      (r) => visitWords([r.target]) && (r.heredoc?.substitutions ?? []).every((s: Script) => visitScript(s)),
    );
  return visitScript(script) ? out : null;
}
