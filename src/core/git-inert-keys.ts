/**
 * Keys of a repository's git config that name no program for git to run, decided from git's own
 * list of the keys it reads (`git help --config`, git-config(1)): tole lets these pass as they
 * are. A key is written `section.variable` or `section.<>.variable` (`<>` any subsection); a
 * variable `*` is any variable of that form. Left out on purpose, so they are never waved
 * through: every key that names a program (git-program-keys.ts gives those an inert value),
 * `sendemail.*`, `gitcvs.*`, `instaweb.*` and the third-party sections (git-lfs's custom transfer
 * agents, git-flow's hook paths) but for the plain git-lfs URLs, and every key git may add later.
 */
export const INERT_PATTERNS: readonly string[] = [
  // Sections where git reads no program at all.
  'add.*',
  'add.<>.*',
  'advice.*',
  'am.*',
  'apply.*',
  'author.*',
  'blame.*',
  'branch.*',
  'branch.<>.*',
  'bundle.*',
  'bundle.<>.*',
  'checkout.*',
  'clean.*',
  'clone.*',
  'color.*',
  'color.<>.*',
  'column.*',
  'commit.*',
  'commitgraph.*',
  'committer.*',
  'completion.*',
  'credentialcache.*',
  'credentialstore.*',
  'extensions.*',
  'fastimport.*',
  'feature.*',
  'fetch.*',
  'fetch.<>.*',
  'format.*',
  'fsck.*',
  'fsmonitor.*',
  'gc.*',
  'gc.<>.*',
  'gitweb.*',
  'grep.*',
  'gui.*',
  'i18n.*',
  'index.*',
  'init.defaultbranch',
  'log.*',
  'lsrefs.*',
  'mailinfo.*',
  'mailmap.*',
  'maintenance.*',
  'maintenance.<>.*',
  'notes.*',
  'notes.<>.*',
  'pack.*',
  'pretty.*',
  'protocol.*',
  'protocol.<>.*',
  'pull.*',
  'push.*',
  'rebase.*',
  'receive.*',
  'receive.<>.*',
  'remotes.*',
  'repack.*',
  'rerere.*',
  'revert.*',
  'showbranch.*',
  'sparse.*',
  'splitindex.*',
  'stash.*',
  'status.*',
  'tag.*',
  'transfer.*',
  'uploadarchive.*',
  'uploadpackfilter.*',
  'uploadpackfilter.<>.*',
  'url.<>.*',
  'user.*',
  'versionsort.*',
  'worktree.*',
  // git reads these only from the user's own (system, global) config, never a repository's.
  'safe.*',
  'trace2.*',
  'uploadpack.*',
  // core: all but editor and pager (made inert), gitproxy (refused: first-wins, cannot be made
  // inert), alternaterefscommand (made inert) and the
  // four tole's git guard sets for every command (fsmonitor, hookspath, askpass, sshcommand).
  ...[
    'abbrev',
    'alternaterefsprefixes',
    'attributesfile',
    'autocrlf',
    'bare',
    'bigfilethreshold',
    'checkroundtripencoding',
    'checkstat',
    'commentchar',
    'commitgraph',
    'compression',
    'createobject',
    'deltabasecachelimit',
    'eol',
    'excludesfile',
    'filemode',
    'filesreflocktimeout',
    'fsmonitorhookversion',
    'fsync',
    'fsyncmethod',
    'fsyncobjectfiles',
    'hidedotfiles',
    'ignorecase',
    'ignorestat',
    'logallrefupdates',
    'looseobjects',
    'loosecompression',
    'multipackindex',
    'notesref',
    'packedgitlimit',
    'packedgitwindowsize',
    'packedrefstimeout',
    'precomposeunicode',
    'prefersymlinkrefs',
    'preloadindex',
    'protecthfs',
    'protectntfs',
    'quotepath',
    'repositoryformatversion',
    'restrictinheritedhandles',
    'safecrlf',
    'sharedrepository',
    'sparsecheckout',
    'sparsecheckoutcone',
    'splitindex',
    'symlinks',
    'trustctime',
    'unsetenvvars',
    'untrackedcache',
    'usereplacerefs',
    'warnambiguousrefs',
    'whitespace',
    'fsmonitor',
    'hookspath',
    'askpass',
    'sshcommand',
  ].map((variable) => `core.${variable}`),
  // credential: the helpers are made inert; the rest names users and URL handling.
  'credential.username',
  'credential.usehttppath',
  'credential.protectprotocol',
  'credential.sanitizeprompt',
  'credential.<>.username',
  'credential.<>.usehttppath',
  // diff: the drivers' commands and diff.external are made inert; the rest is how diffs read.
  ...[
    'algorithm',
    'autorefreshindex',
    'colormoved',
    'colormovedws',
    'context',
    'dirstat',
    'ignoresubmodules',
    'indentheuristic',
    'interhunkcontext',
    'mnemonicprefix',
    'noprefix',
    'orderfile',
    'relative',
    'renamelimit',
    'renames',
    'statgraphwidth',
    'submodule',
    'suppressblankempty',
    'wordregex',
    'wserrorhighlight',
  ].map((variable) => `diff.${variable}`),
  'diff.<>.binary',
  'diff.<>.cachetextconv',
  'diff.<>.wordregex',
  'diff.<>.xfuncname',
  'difftool.prompt',
  'difftool.trustexitcode',
  'filter.<>.required',
  // gpg: the programs are made inert; these name formats, trust levels and files of keys.
  'gpg.format',
  'gpg.mintrustlevel',
  'gpg.ssh.allowedsignersfile',
  'gpg.ssh.revocationfile',
  'guitool.<>.argprompt',
  'guitool.<>.confirm',
  'guitool.<>.needsfile',
  'guitool.<>.noconsole',
  'guitool.<>.norescan',
  'guitool.<>.prompt',
  'guitool.<>.revprompt',
  'guitool.<>.revunmerged',
  'guitool.<>.title',
  // help, man and the browsers name a tool; a tool's own command and path are made inert, and a
  // name git does not know without a command is refused by git.
  'help.autocorrect',
  'help.browser',
  'help.format',
  'help.htmlpath',
  'man.viewer',
  'web.browser',
  'http.*',
  'http.<>.*',
  'imap.authmethod',
  'imap.folder',
  'imap.host',
  'imap.pass',
  'imap.port',
  'imap.preformattedhtml',
  'imap.sslverify',
  'imap.user',
  'interactive.singlekey',
  // merge: the drivers are made inert; the rest is how merges go.
  ...[
    'autostash',
    'branchdesc',
    'conflictstyle',
    'defaulttoupstream',
    'directoryrenames',
    'ff',
    'log',
    'renamelimit',
    'renames',
    'renormalize',
    'stat',
    'suppressdest',
    'verbosity',
    'verifysignatures',
  ].map((variable) => `merge.${variable}`),
  'merge.<>.name',
  'merge.<>.recursive',
  'mergetool.hideresolved',
  'mergetool.keepbackup',
  'mergetool.keeptemporaries',
  'mergetool.prompt',
  'mergetool.writetotemp',
  'mergetool.<>.hideresolved',
  'mergetool.<>.trustexitcode',
  'mergetool.<>.hasoutput',
  'mergetool.<>.useautomerge',
  'mergetool.<>.layout',
  // remote: the pack programs are made inert; a remote's vcs is a NAMED_ONLY key.
  ...[
    'url',
    'pushurl',
    'fetch',
    'push',
    'mirror',
    'skipdefaultupdate',
    'skipfetchall',
    'tagopt',
    'prune',
    'prunetags',
    'promisor',
    'partialclonefilter',
    'proxy',
    'proxyauthmethod',
  ].map((variable) => `remote.<>.${variable}`),
  'remote.pushdefault',
  'ssh.variant',
  // submodule: the update command is made inert; the rest names where and what.
  'submodule.*',
  'submodule.<>.active',
  'submodule.<>.branch',
  'submodule.<>.fetchrecursesubmodules',
  'submodule.<>.ignore',
  'submodule.<>.path',
  'submodule.<>.shallow',
  'submodule.<>.url',
  'tar.umask',
  'tar.<>.remote',
  // git-lfs: its URLs and what to fetch (its transfer agents and extensions are programs).
  'lfs.url',
  'lfs.pushurl',
  'lfs.repositoryformatversion',
  'lfs.fetchinclude',
  'lfs.fetchexclude',
  'lfs.locksverify',
  'lfs.<>.access',
  'lfs.<>.locksverify',
  // git-lfs's plain settings: how much to fetch and keep, time-outs, retries, locking.
  'lfs.activitytimeout',
  'lfs.allowincompletepush',
  'lfs.basictransfersonly',
  'lfs.concurrenttransfers',
  'lfs.dialtimeout',
  'lfs.fetchrecentalways',
  'lfs.fetchrecentcommitsdays',
  'lfs.fetchrecentrefsdays',
  'lfs.fetchrecentrefsincluderemotes',
  'lfs.fetchrecentremoterefs',
  'lfs.keepalive',
  'lfs.lockignoredfiles',
  'lfs.pruneoffsetdays',
  'lfs.pruneremotetocheck',
  'lfs.pruneverifyremotealways',
  'lfs.setlockablereadonly',
  'lfs.skipdownloaderrors',
  'lfs.tlstimeout',
  'lfs.transfer.maxretries',
  'lfs.transfer.maxverifies',
  // git-flow's branch names and prefixes, as `git flow init` writes them (its hook path is a program's).
  'gitflow.branch.master',
  'gitflow.branch.main',
  'gitflow.branch.develop',
  'gitflow.prefix.feature',
  'gitflow.prefix.bugfix',
  'gitflow.prefix.release',
  'gitflow.prefix.hotfix',
  'gitflow.prefix.support',
  'gitflow.prefix.versiontag',
  'gitflow.origin',
  // Git for Windows' long-path switch, found in repositories made there.
  'core.longpaths',
];

const INERT = new Set(INERT_PATTERNS);

/**
 * Keys whose value git makes into the name of a file it runs: a remote's vcs `x` runs
 * `git-remote-x`, and a diff or merge tool `x` has git's mergetool scripts source
 * `<git's mergetools folder>/x` as shell. A plain name is looked up where git keeps its own
 * programs (then on the user's PATH); a value with a slash is a path from there, so
 * `remote.origin.vcs = x/../run-me` runs `./run-me` of the repository once a folder `git-remote-x`
 * is beside it, and `diff.tool = ../../../../work/run-me` sources any file. These pass only as a
 * plain name; with a slash they are unvouched.
 */
export const NAMED_ONLY: ReadonlySet<string> = new Set([
  'remote.<>.vcs',
  'diff.tool',
  'diff.guitool',
  'merge.tool',
  'merge.guitool',
]);

/** A key split as git reads it: section, subsection (null when there is none) and variable. */
export interface KeyParts {
  readonly section: string;
  readonly subsection: string | null;
  readonly variable: string;
}

/** `key` (as `git config --list` prints it) in its parts; the section and variable lowercased. */
export function keyParts(key: string): KeyParts {
  const first = key.indexOf('.');
  const last = key.lastIndexOf('.');
  const section = key.slice(0, first).toLowerCase();
  const variable = key.slice(last + 1).toLowerCase();
  return { section, subsection: first === last ? null : key.slice(first + 1, last), variable };
}

/** Whether git reads no program from `parts` set to `value` (tole lets it pass as it is). */
export function namesNoProgram(parts: KeyParts, value: string | null): boolean {
  const middle = parts.subsection === null ? '' : '<>.';
  const literal = parts.subsection === null ? null : `${parts.section}.${parts.subsection}.${parts.variable}`;
  const pattern = `${parts.section}.${middle}${parts.variable}`;
  return (
    INERT.has(pattern) ||
    (NAMED_ONLY.has(pattern) && !(value ?? '').includes('/')) ||
    INERT.has(`${parts.section}.${middle}*`) ||
    (literal !== null && INERT.has(literal))
  );
}
