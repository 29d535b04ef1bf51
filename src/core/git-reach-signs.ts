/**
 * Signs in a command's text that it may run a git other than tole's (git-shim-script.ts) by a path
 * the text does not spell: a program named at run time (`g=$(type -ap git | sed -n 2p); $g diff`,
 * `find … -name git -exec {} diff`), or a link or copy made of a git (`ln -s "$(type -ap git | tail
 * -1)" mygit`). tole cannot tell from the text which program that is, so these are no refusal; the
 * approval box says them beside why the call is asked, where a key would run it unconfined. Only a
 * line that names git counts: `$CC -o x x.c` is no sign. Read from tole's shell parser's reading,
 * or loosely, word by word, where it cannot read the line.
 */
import { guardItems, runsAsCommand } from './git-guard-commands';
import { LOOSE_WORDS_MAX } from './git-guard-drops';

/** git named as a word (`git`, `/git`, `-name git`), not inside another name (`github`, `.gitignore`). */
const GIT_WORD = /(^|[^\w.-])git($|[^\w.-])/;
/** Programs that make a link or a copy of a file (`cat /usr/bin/git > g`, `dd if=/usr/bin/git of=g` copy it too). */
const LINKS_OR_COPIES = new Set(['ln', 'cp', 'install', 'rsync', 'cat', 'dd', 'tee']);

const basename = (text: string): string => text.slice(text.lastIndexOf('/') + 1);

/** What in `command` may run a git tole's git does not vet, in words for the approval box; null: no sign. */
export function gitReachSign(command: string): string | null {
  if (!GIT_WORD.test(command)) return null;
  const programs = programWords(command);
  const dynamic = programs.find((words) => /^[$`]|^\{\}$/.test(words[0] ?? ''));
  if (dynamic)
    return `the line names git and runs a program named when it runs (${dynamic[0]}): if that is a git, tole's git does not vet what it runs, and a repository's drivers can run there`;
  const copier = programs.find(
    (words) => LINKS_OR_COPIES.has(basename(words[0] ?? '')) && words.slice(1).some((word) => GIT_WORD.test(word)),
  );
  if (copier)
    return `the line makes a link or copy of a git (${copier[0]}): a git run by that name is not tole's git, which vets what it runs`;
  return null;
}

/**
 * Each program in command position with its arguments, as the parser reads them (every word
 * loosely where it cannot; a command of more than LOOSE_WORDS_MAX words as its first word's
 * alone, which the guard check refuses to run unconfined).
 */
function programWords(command: string): string[][] {
  const items = guardItems(command);
  if (items === null)
    return command
      .split(/[;&|()\n]+/)
      .map((part) => part.trim().split(/\s+/))
      .flatMap((words) => (words.length > LOOSE_WORDS_MAX ? [words] : words.map((_word, index) => words.slice(index))));
  return items.filter(runsAsCommand).map((item) => item.words.map((word) => word.text));
}
