/**
 * What the bash classifier knows about commands, as data. `command-risk.ts` (with `classify/`) applies it.
 *
 * Anything not listed here is Write. A rule starts at its `risk` and is only ever raised by
 * its patterns (or lowered to ReadOnly by an exact `readOnlyWhen` list form). Reasons are read
 * by the user in the approval prompt: short, concrete, in backticks where they quote a command.
 */
import type { Risk } from './risk';

/** A test over a command's parsed arguments. */
export type ArgPattern =
  /** An option is present: a short letter (`-rf` holds `r` and `f`) or a long name (abbreviations count). */
  | { readonly kind: 'flag'; readonly short?: string; readonly long?: readonly string[] }
  /** The option is absent (`git rm` without `--cached`). */
  | { readonly kind: 'missingFlag'; readonly short?: string; readonly long?: readonly string[] }
  /** Any argument, option or not, equals or starts with one of these. */
  | { readonly kind: 'arg'; readonly equals?: readonly string[]; readonly prefix?: readonly string[] }
  /** A non-option argument equals or starts with one of these (`+main` in `git push`). */
  | { readonly kind: 'positional'; readonly equals?: readonly string[]; readonly prefix?: readonly string[] }
  /** An option has one of these values, compared case-insensitively (`kill -s KILL`). */
  | { readonly kind: 'optionValue'; readonly options: readonly string[]; readonly values: readonly string[] }
  /** Something follows `--` (`git checkout -- file`). */
  | { readonly kind: 'afterDoubleDash' }
  /** A non-option argument names an existing path, or is `.` (`git checkout file`). */
  | { readonly kind: 'existingPath' }
  /** At least `min` non-option arguments (`hostname NAME`). */
  | { readonly kind: 'positionals'; readonly min: number }
  /** Any argument, or the text given on stdin (heredoc, here-string), matches (`psql -c 'DROP …'`). */
  | { readonly kind: 'text'; readonly pattern: RegExp }
  /** Stdin comes from a pipe or a file, whose text tole cannot read (`cat q.sql | psql`). */
  | { readonly kind: 'unseenStdin' }
  /** A non-option argument matches (`delete-table`, `apps:destroy`). */
  | { readonly kind: 'positionalMatches'; readonly pattern: RegExp }
  /** Every one of these holds (`compose down` with `-v`). */
  | { readonly kind: 'all'; readonly of: readonly ArgPattern[] };

interface RiskPattern {
  readonly when: ArgPattern;
  readonly risk: Risk;
  readonly reason: string;
}

/** A form that only lists or shows: every option in `options`, one of `requires`, few positionals. */
export interface ListForm {
  readonly options?: readonly string[];
  readonly requires?: readonly string[];
  readonly maxPositionals?: number;
}

/** mv / cp / ln / install: the last argument (or `-t DIR`) may replace an existing path. */
export interface OverwriteSpec {
  /** Options that make the command refuse or back up instead of overwrite. */
  readonly safeOptions: readonly string[];
  /** When set, the command only overwrites with this option (`ln -f`). */
  readonly onlyWith?: ArgPattern;
  readonly targetDirectoryOptions: readonly string[];
}

export interface CommandRule {
  readonly risk: Risk;
  readonly reason: string;
  /** A Write that runs code tole cannot see into (a Makefile, a project script): without a sandbox it needs a keypress. */
  readonly opaque?: boolean;
  /** Exact option lists under which the command only reads (`git branch -a`). */
  readonly readOnlyWhen?: readonly ListForm[];
  /** Checked first; the highest match decides, ties go to the earlier pattern. */
  readonly raise?: readonly RiskPattern[];
  /** Options that take a value (`-o FILE`), so the value is not read as an argument. */
  readonly valueOptions?: readonly string[];
  /** Options whose value is a file the command truncates and rewrites (`sort -o FILE`). */
  readonly outputOptions?: readonly string[];
  /** Non-option arguments from this index on are files the command rewrites (`uniq IN OUT`: 1). */
  readonly outputFrom?: number;
  /** With one of these, the outputs are appended to instead (`tee -a`). */
  readonly appendOptions?: readonly string[];
  /** Options whose value is a command line the program runs (`rg --pre CMD`, `su -c CMD`). */
  readonly commandOptions?: readonly string[];
  /** The non-option arguments are a command line it runs (`git submodule foreach CMD`). */
  readonly runsArguments?: boolean;
  /** Options whose value is git `KEY=VALUE` configuration (`git clone -c`). */
  readonly configOptions?: readonly string[];
  /** `git config KEY VALUE`: a VALUE for a key that names a program is a command line. */
  readonly configValues?: boolean;
  readonly overwrites?: OverwriteSpec;
  /** It may run its arguments as a command somewhere (`kubectl exec pod -- rm -rf /data`): a Destructive one there counts. */
  readonly mayRunArguments?: boolean;
  /** `cd`: later relative paths in the line can no longer be checked. */
  readonly changesDirectory?: boolean;
  /** Keyed by the first non-option argument. */
  readonly subcommands?: Readonly<Record<string, CommandRule>>;
  /** For a subcommand not listed. */
  readonly otherSubcommand?: CommandRule;
  /** When there is no subcommand at all. */
  readonly bare?: CommandRule;
  /** Options that may come before a subcommand without making it unknown. */
  readonly globalFlags?: readonly string[];
}

const readOnly = (name: string, extra: Partial<CommandRule> = {}): CommandRule => ({
  risk: 'ReadOnly',
  reason: `\`${name}\` only reads`,
  ...extra,
});
const write = (reason: string, extra: Partial<CommandRule> = {}): CommandRule => ({ risk: 'Write', reason, ...extra });
const destructive = (reason: string, extra: Partial<CommandRule> = {}): CommandRule => ({
  risk: 'Destructive',
  reason,
  ...extra,
});

/** SQL that deletes data or schema, in any case; `UPDATE` without `WHERE` rewrites every row. */
const DESTRUCTIVE_SQL = /\b(?:drop|truncate|delete|deletemany|remove|dropdatabase)\b|\bupdate\b(?![\s\S]*\bwhere\b)/i;
/** Client commands that run a shell, load code, or read SQL from a file tole does not read. */
const SQL_CLIENT_ESCAPE =
  /\\!|\\(?:i|ir|include|include_relative|o|out|copy|g)\b|^\s*\.(?:shell|system|read|load|once|output|import)\b|\bsystem\b|\bsource\b|\\\.|\bprogram\b|load_extension|\bload\s*\(/im;

/** A database client: what it runs there is out of any sandbox's reach. */
function sqlClient(name: string): CommandRule {
  return write(`\`${name}\` talks to a database`, {
    mayRunArguments: true,
    raise: [
      {
        when: { kind: 'text', pattern: DESTRUCTIVE_SQL },
        risk: 'Destructive',
        reason: `\`${name}\` runs DROP, TRUNCATE, DELETE or UPDATE without WHERE against a database, which no sandbox protects`,
      },
      {
        when: { kind: 'text', pattern: SQL_CLIENT_ESCAPE },
        risk: 'Destructive',
        reason: `\`${name}\` runs a shell command, loads code or runs SQL from a file tole does not read`,
      },
      {
        when: { kind: 'unseenStdin' },
        risk: 'Destructive',
        reason: `\`${name}\` runs SQL from stdin that tole cannot read, against a database no sandbox protects`,
      },
      {
        when: { kind: 'flag', short: 'f', long: ['--file'] },
        risk: 'Destructive',
        reason: `\`${name} -f\` runs SQL from a file tole does not read, against a database no sandbox protects`,
      },
      {
        when: { kind: 'arg', equals: ['-init', '--init', '-cmd', '--eval', '--file'] },
        risk: 'Destructive',
        reason: `\`${name}\` runs commands from a file or an option tole does not read`,
      },
    ],
  });
}

/** Database clients: SQL given in arguments, heredocs or here-strings is read; anything else is not. */
const SQL_CLIENTS = [
  'psql',
  'mysql',
  'mariadb',
  'sqlcmd',
  'clickhouse-client',
  'cockroach',
  'sqlite3',
  'sqlite',
  'duckdb',
  'pgcli',
  'mycli',
  'litecli',
  'usql',
  'sqlplus',
  'isql',
  'mongosh',
  'mongo',
  'cqlsh',
] as const;

/**
 * Verbs that delete remote state, in the spellings cloud and cluster CLIs use: `delete`,
 * `delete-table`, `apps:destroy`, `rm`, `uninstall`, `purge` …
 */
const DESTROYING_VERB =
  /^(?:[\w.-]+:)?(?:delete|destroy|remove|rm|rb|rmi|uninstall|un|del|purge|terminate|deregister|prune|drain|nuke|wipe|erase|drop|undefine|kill|evict)(?:[-_:][\w:-]*)?$/i;

/** CLIs that change state outside the machine (clouds, clusters, containers, forges): no sandbox reaches it. */
const REMOTE_CLIS = [
  'kubectl',
  'oc',
  'helm',
  'eksctl',
  'aws',
  'gcloud',
  'gsutil',
  'az',
  'doctl',
  'hcloud',
  'linode-cli',
  'scw',
  'ibmcloud',
  'oci',
  'openstack',
  'terraform',
  'tofu',
  'terragrunt',
  'pulumi',
  'cdk',
  'cdktf',
  'serverless',
  'sls',
  'sst',
  'fly',
  'flyctl',
  'heroku',
  'vercel',
  'netlify',
  'firebase',
  'wrangler',
  'supabase',
  'railway',
  's3cmd',
  'rclone',
  'vault',
  'consul',
  'nomad',
  'docker',
  'docker-compose',
  'podman',
  'podman-compose',
  'nerdctl',
  'minikube',
  'kind',
  'k3d',
  'multipass',
  'vagrant',
  'lxc',
  'incus',
  'virsh',
  'gh',
  'glab',
] as const;

/**
 * A CLI acting on remote state. Destructive when it deletes there: a destroying verb anywhere
 * among its words (`kubectl delete`, `aws dynamodb delete-table`, `heroku apps:destroy`,
 * `rclone sync`), a deleting flag (`aws s3 sync --delete`, `kubectl apply --prune`), an HTTP
 * DELETE (`gh api -X DELETE`), or `compose down -v`. A destructive command it runs elsewhere
 * (`kubectl exec pod -- rm -rf /data`, `docker exec c rm -rf /`) counts as its own.
 */
function remoteCli(name: string): CommandRule {
  return write(`\`${name}\` changes state outside this machine, which no sandbox protects`, {
    mayRunArguments: true,
    raise: [
      ...(name === 'rclone' || name === 's3cmd'
        ? [
            {
              when: { kind: 'positional', equals: ['sync', 'move', 'moveto', 'cleanup', 'rmdirs', 'dedupe'] },
              risk: 'Destructive',
              reason: `\`${name} sync\` deletes files in the destination that the source lacks`,
            } as const,
          ]
        : []),
      {
        when: { kind: 'positionalMatches', pattern: DESTROYING_VERB },
        risk: 'Destructive',
        reason: `\`${name}\` deletes or replaces resources outside this machine, which no sandbox protects`,
      },
      {
        when: {
          kind: 'arg',
          prefix: ['--delete', '--prune', '--purge', '--remove'],
          equals: ['--force', '-destroy', '--destroy'],
        },
        risk: 'Destructive',
        reason: `\`${name}\` with a deleting or forcing flag deletes or replaces resources outside this machine`,
      },
      {
        when: { kind: 'optionValue', options: ['-X', '--request', '--method'], values: ['DELETE'] },
        risk: 'Destructive',
        reason: `\`${name}\` sends an HTTP DELETE`,
      },
      {
        when: {
          kind: 'all',
          of: [
            { kind: 'positional', equals: ['down'] },
            { kind: 'flag', short: 'v', long: ['--volumes', '--rmi'] },
          ],
        },
        risk: 'Destructive',
        reason: `\`${name} compose down -v\` deletes the volumes and their data`,
      },
      {
        when: { kind: 'text', pattern: /\bmutation\b[\s\S]*\b(?:delete|remove|archive)/i },
        risk: 'Destructive',
        reason: `\`${name}\` sends a mutation that deletes`,
      },
    ],
    valueOptions: [
      '-X',
      '--request',
      '--method',
      '-n',
      '--namespace',
      '-c',
      '--container',
      '--context',
      '-f',
      '--file',
    ],
  });
}

/** Commands that only read, print or test, with no option that writes. */
const PLAIN_READERS = [
  'ls',
  'cat',
  'head',
  'tail',
  'wc',
  'grep',
  'egrep',
  'fgrep',
  'zgrep',
  'pwd',
  'echo',
  'printf',
  'which',
  'whereis',
  'type',
  'stat',
  'du',
  'df',
  'diff',
  'cmp',
  'comm',
  'cut',
  'tr',
  'printenv',
  'true',
  'false',
  'test',
  '[',
  '[[',
  '((',
  'basename',
  'dirname',
  'realpath',
  'readlink',
  'id',
  'whoami',
  'groups',
  'uname',
  'seq',
  'sleep',
  'md5sum',
  'sha1sum',
  'sha224sum',
  'sha256sum',
  'sha384sum',
  'sha512sum',
  'b2sum',
  'cksum',
  'shasum',
  'nl',
  'rev',
  'tac',
  'column',
  'fold',
  'fmt',
  'paste',
  'join',
  'expand',
  'unexpand',
  'strings',
  'od',
  'hexdump',
  'base64',
  'base32',
  'jq',
  'locale',
  'nproc',
  'uptime',
  'free',
  'tty',
  'arch',
  'cal',
  'expr',
  'numfmt',
  'getconf',
  'lsblk',
  'whatis',
  'logname',
  'users',
  'who',
  'yes',
  'zcat',
  'bzcat',
  'xzcat',
  'lsof',
  'dirs',
  'jobs',
  'read',
  'getopts',
  'let',
  ':',
  'set',
  'unset',
  'shift',
  'exit',
  'return',
  'wait',
  'umask',
  'ulimit',
  'unalias',
  'help',
  'for',
  'export',
  'declare',
  'typeset',
  'local',
  'readonly',
  'alias',
  'trap',
  'shopt',
  'caller',
  'times',
] as const;

export const COMMAND_RULES: Readonly<Record<string, CommandRule>> = {
  ...Object.fromEntries(PLAIN_READERS.map((name) => [name, readOnly(name)])),

  cd: readOnly('cd', { reason: '`cd` only changes the directory', changesDirectory: true }),
  pushd: readOnly('pushd', { reason: '`pushd` only changes the directory', changesDirectory: true }),
  popd: readOnly('popd', { reason: '`popd` only changes the directory', changesDirectory: true }),
  rg: readOnly('rg', {
    commandOptions: ['--pre', '--hostname-bin'],
    valueOptions: [
      '--pre',
      '--hostname-bin',
      '-e',
      '-f',
      '-g',
      '-t',
      '-T',
      '-m',
      '-A',
      '-B',
      '-C',
      '-j',
      '-M',
      '-r',
      '--replace',
    ],
  }),
  tree: readOnly('tree', {
    outputOptions: ['-o'],
    valueOptions: ['-o', '-L', '-P', '-I', '--charset', '--filelimit', '--timefmt', '--sort'],
  }),
  sort: readOnly('sort', {
    outputOptions: ['-o', '--output'],
    commandOptions: ['--compress-program'],
    valueOptions: [
      '-o',
      '--output',
      '-k',
      '--key',
      '-t',
      '--field-separator',
      '-S',
      '--buffer-size',
      '-T',
      '--temporary-directory',
      '--files0-from',
      '--parallel',
      '--batch-size',
      '--random-source',
      '--compress-program',
    ],
  }),
  uniq: readOnly('uniq', {
    outputFrom: 1,
    valueOptions: ['-f', '--skip-fields', '-s', '--skip-chars', '-w', '--check-chars'],
  }),
  xxd: readOnly('xxd', { outputFrom: 1, valueOptions: ['-c', '-g', '-l', '-s', '-o', '-n', '-cols', '-len', '-seek'] }),
  iconv: readOnly('iconv', {
    outputOptions: ['-o', '--output'],
    valueOptions: ['-o', '--output', '-f', '--from-code', '-t', '--to-code'],
  }),
  tee: readOnly('tee', { outputFrom: 0, appendOptions: ['-a', '--append'] }),
  // `ps e` (BSD) prints each process's environment after its command: unconfined, tole's own holds
  // the provider's key. procps reads `-axe` or `-xe` BSD-style too, so an `e` beside an `x` counts.
  ps: readOnly('ps', {
    raise: [
      {
        when: { kind: 'positionalMatches', pattern: /e|[$`]/ },
        risk: 'Write',
        reason: "`ps e` shows other processes' environments (tole's own holds your key)",
      },
      {
        when: {
          kind: 'all',
          of: [
            { kind: 'flag', short: 'e' },
            { kind: 'flag', short: 'x' },
          ],
        },
        risk: 'Write',
        reason: "`ps -xe` shows other processes' environments (tole's own holds your key)",
      },
    ],
    valueOptions: [
      '-C',
      '-G',
      '-g',
      '-O',
      '-o',
      '-p',
      '-q',
      '-s',
      '-t',
      '-U',
      '-u',
      '--cols',
      '--columns',
      '--format',
      '--group',
      '--Group',
      '--pid',
      '--ppid',
      '--quick-pid',
      '--rows',
      '--sid',
      '--sort',
      '--tty',
      '--user',
      '--User',
      '--width',
    ],
  }),
  date: readOnly('date', {
    raise: [
      { when: { kind: 'flag', short: 's', long: ['--set'] }, risk: 'Write', reason: '`date -s` sets the system clock' },
    ],
    valueOptions: ['-d', '--date', '-f', '--file', '-r', '--reference', '-s', '--set'],
  }),
  file: readOnly('file', {
    raise: [
      {
        when: { kind: 'flag', short: 'C', long: ['--compile'] },
        risk: 'Write',
        reason: '`file -C` writes a compiled magic file',
      },
    ],
    valueOptions: [
      '-m',
      '--magic-file',
      '-f',
      '--files-from',
      '-F',
      '--separator',
      '-e',
      '--exclude',
      '-P',
      '--parameter',
    ],
  }),
  hostname: readOnly('hostname', {
    raise: [
      { when: { kind: 'positionals', min: 1 }, risk: 'Write', reason: '`hostname NAME` renames the machine' },
      {
        when: { kind: 'flag', short: 'bF', long: ['--boot', '--file'] },
        risk: 'Write',
        reason: '`hostname -F` renames the machine',
      },
    ],
  }),
  env: readOnly('env'),

  mkdir: write('`mkdir` creates directories'),
  touch: write('`touch` creates files or updates their times'),
  mktemp: write('`mktemp` creates a temporary file'),
  patch: write('`patch` edits files'),
  tar: write('`tar` can create or overwrite files', {
    raise: [
      {
        when: { kind: 'flag', long: ['--remove-files'] },
        risk: 'Destructive',
        reason: '`tar --remove-files` deletes the files it archives',
      },
    ],
    /** `--checkpoint-action=exec=CMD` runs CMD (the `exec=` is dropped before it is read). */
    commandOptions: [
      '--checkpoint-action',
      '--to-command',
      '--use-compress-program',
      '-I',
      '--info-script',
      '--new-volume-script',
      '-F',
      '--rmt-command',
      '--rsh-command',
    ],
    valueOptions: [
      '--checkpoint-action',
      '-f',
      '--file',
      '-C',
      '--directory',
      '-T',
      '--files-from',
      '-X',
      '--exclude-from',
      '--to-command',
      '--use-compress-program',
      '-I',
      '--info-script',
      '--new-volume-script',
      '-F',
      '--rmt-command',
      '--rsh-command',
    ],
  }),
  hash: readOnly('hash', {
    raise: [
      {
        when: { kind: 'flag', short: 'p' },
        risk: 'Destructive',
        reason: '`hash -p` makes a command name run another program',
      },
    ],
  }),
  enable: write('`enable` switches shell builtins on or off', {
    raise: [
      {
        when: { kind: 'flag', short: 'f' },
        risk: 'Destructive',
        reason: '`enable -f` loads code tole cannot inspect into the shell',
      },
    ],
  }),
  make: write('`make` runs build commands from a Makefile', { opaque: true }),

  // Remote state: no sandbox protects it, so deleting there is Destructive whatever the flags.
  ...Object.fromEntries(REMOTE_CLIS.map((name) => [name, remoteCli(name)])),
  ...Object.fromEntries(SQL_CLIENTS.map((name) => [name, sqlClient(name)])),
  'redis-cli': write('`redis-cli` changes a Redis server', {
    raise: [
      {
        when: { kind: 'text', pattern: /^(flushall|flushdb|del|unlink)$/i },
        risk: 'Destructive',
        reason: '`redis-cli flushall` deletes the keys of a Redis server, which no sandbox protects',
      },
      {
        when: { kind: 'unseenStdin' },
        risk: 'Destructive',
        reason: '`redis-cli` runs commands from stdin that tole cannot read, against a server no sandbox protects',
      },
    ],
  }),
  source: write('`source` runs a script whose commands tole does not inspect'),
  '.': write('`.` runs a script whose commands tole does not inspect'),
  curl: write('`curl` makes network requests', {
    raise: [
      {
        when: { kind: 'optionValue', options: ['-X', '--request'], values: ['DELETE'] },
        risk: 'Destructive',
        reason: '`curl -X DELETE` deletes a resource on a server, which no sandbox protects',
      },
    ],
    outputOptions: ['-o', '--output'],
    valueOptions: [
      '-o',
      '--output',
      '-d',
      '--data',
      '-H',
      '--header',
      '-X',
      '--request',
      '-u',
      '--user',
      '-A',
      '-e',
      '-F',
      '--form',
      '-K',
      '--config',
      '-T',
      '--upload-file',
      '-x',
      '--proxy',
      '-m',
      '--max-time',
    ],
  }),
  wget: write('`wget` downloads files', {
    outputOptions: ['-O', '--output-document'],
    valueOptions: ['-O', '--output-document', '-P', '--directory-prefix', '-o', '--output-file', '-U', '--user-agent'],
  }),
  unzip: write('`unzip` extracts files', {
    raise: [
      {
        when: { kind: 'flag', short: 'o' },
        risk: 'Destructive',
        reason: '`unzip -o` overwrites existing files without asking',
      },
    ],
    valueOptions: ['-d', '-x', '-P'],
  }),
  mv: write('`mv` moves files', {
    overwrites: {
      safeOptions: ['-n', '--no-clobber', '-b', '--backup', '--update=none'],
      targetDirectoryOptions: ['-t', '--target-directory'],
    },
    valueOptions: ['-t', '--target-directory', '-S', '--suffix'],
  }),
  cp: write('`cp` copies files', {
    overwrites: {
      safeOptions: ['-n', '--no-clobber', '-b', '--backup', '--update=none'],
      targetDirectoryOptions: ['-t', '--target-directory'],
    },
    valueOptions: ['-t', '--target-directory', '-S', '--suffix'],
  }),
  ln: write('`ln` creates links', {
    overwrites: {
      safeOptions: ['-b', '--backup'],
      onlyWith: { kind: 'flag', short: 'f', long: ['--force'] },
      targetDirectoryOptions: ['-t', '--target-directory'],
    },
    valueOptions: ['-t', '--target-directory', '-S', '--suffix'],
  }),
  install: write('`install` copies files into place', {
    overwrites: {
      safeOptions: ['-d', '--directory', '-b', '--backup'],
      targetDirectoryOptions: ['-t', '--target-directory'],
    },
    valueOptions: ['-t', '--target-directory', '-m', '--mode', '-o', '--owner', '-g', '--group', '-S', '--suffix'],
  }),
  rsync: write('`rsync` copies files over existing ones', {
    raise: [
      {
        when: { kind: 'arg', prefix: ['--delete', '--del'] },
        risk: 'Destructive',
        reason: '`rsync --delete` deletes files in the destination',
      },
      {
        when: { kind: 'arg', equals: ['--remove-source-files'] },
        risk: 'Destructive',
        reason: '`rsync --remove-source-files` deletes the source files',
      },
    ],
    commandOptions: ['-e', '--rsh'],
    valueOptions: [
      '-e',
      '--rsh',
      '--exclude',
      '--include',
      '--filter',
      '-f',
      '--exclude-from',
      '--include-from',
      '--rsync-path',
    ],
  }),
  chmod: write('`chmod` changes file permissions', {
    raise: [
      {
        when: { kind: 'flag', short: 'R', long: ['--recursive'] },
        risk: 'Destructive',
        reason: '`chmod -R` changes permissions of a whole directory tree',
      },
    ],
  }),
  chown: write('`chown` changes file owners', {
    raise: [
      {
        when: { kind: 'flag', short: 'R', long: ['--recursive'] },
        risk: 'Destructive',
        reason: '`chown -R` changes owners of a whole directory tree',
      },
    ],
  }),
  chgrp: write('`chgrp` changes file groups', {
    raise: [
      {
        when: { kind: 'flag', short: 'R', long: ['--recursive'] },
        risk: 'Destructive',
        reason: '`chgrp -R` changes groups of a whole directory tree',
      },
    ],
  }),
  crontab: destructive('`crontab FILE` or `crontab -` replaces every scheduled job; `crontab -r` deletes them', {
    readOnlyWhen: [{ options: ['-l', '-u'], requires: ['-l'], maxPositionals: 0 }],
    valueOptions: ['-u'],
  }),
  su: write('`su` runs commands as another user', {
    commandOptions: ['-c', '--command'],
    valueOptions: ['-c', '--command', '-s', '--shell', '-g', '--group'],
  }),
  script: write('`script` records a terminal session to a file', {
    commandOptions: ['-c', '--command'],
    valueOptions: ['-c', '--command'],
  }),

  rm: destructive('`rm` deletes files', {
    raise: [
      {
        when: { kind: 'flag', short: 'rR', long: ['--recursive'] },
        risk: 'Destructive',
        reason: '`rm -r` removes a directory tree',
      },
      {
        when: { kind: 'flag', short: 'f', long: ['--force'] },
        risk: 'Destructive',
        reason: '`rm -f` deletes files without asking',
      },
    ],
  }),
  rmdir: destructive('`rmdir` removes directories'),
  unlink: destructive('`unlink` deletes a file'),
  srm: destructive('`srm` securely deletes files'),
  rimraf: destructive('`rimraf` removes a directory tree'),
  shred: destructive('`shred` overwrites files so they cannot be recovered'),
  wipefs: destructive('`wipefs` erases filesystem signatures from a disk'),
  dd: destructive('`dd` writes raw bytes and can overwrite files or whole disks'),
  truncate: destructive('`truncate` cuts files to a size, discarding their data'),
  fdisk: destructive('`fdisk` rewrites a disk partition table'),
  sfdisk: destructive('`sfdisk` rewrites a disk partition table'),
  cfdisk: destructive('`cfdisk` rewrites a disk partition table'),
  gdisk: destructive('`gdisk` rewrites a disk partition table'),
  sgdisk: destructive('`sgdisk` rewrites a disk partition table'),
  parted: destructive('`parted` rewrites a disk partition table'),
  mkswap: destructive('`mkswap` formats a disk area, erasing it'),
  mke2fs: destructive('`mke2fs` formats a disk, erasing everything on it'),
  blkdiscard: destructive('`blkdiscard` discards every block of a device'),
  pkill: destructive('`pkill` kills every process whose name matches'),
  killall: destructive('`killall` kills every process with that name'),
  killall5: destructive('`killall5` signals every process on the machine'),
  shutdown: destructive('`shutdown` stops the machine'),
  reboot: destructive('`reboot` restarts the machine'),
  halt: destructive('`halt` stops the machine'),
  poweroff: destructive('`poweroff` stops the machine'),

  npm: write('`npm` runs package scripts or changes node_modules', {
    bare: readOnly('npm', { reason: '`npm` only prints help or its version' }),
    globalFlags: [
      '-g',
      '--global',
      '--silent',
      '-s',
      '-q',
      '--quiet',
      '--json',
      '--long',
      '-l',
      '--parseable',
      '-p',
      '--all',
      '-a',
      '--version',
      '-v',
      '--help',
      '-h',
      '--depth',
      '--omit',
      '--include',
    ],
    valueOptions: [
      '--prefix',
      '-w',
      '--workspace',
      '--registry',
      '--cache',
      '--userconfig',
      '--loglevel',
      '--depth',
      '--omit',
      '--include',
    ],
    subcommands: {
      ls: readOnly('npm ls'),
      list: readOnly('npm list'),
      ll: readOnly('npm ll'),
      la: readOnly('npm la'),
      view: readOnly('npm view'),
      info: readOnly('npm info'),
      show: readOnly('npm show'),
      v: readOnly('npm v'),
      outdated: readOnly('npm outdated'),
      search: readOnly('npm search'),
      help: write('`npm help` may start a program named in the project .npmrc (browser, viewer, git)'),
      root: readOnly('npm root'),
      prefix: readOnly('npm prefix'),
      whoami: readOnly('npm whoami'),
      explain: readOnly('npm explain'),
      why: readOnly('npm why'),
      fund: write('`npm fund` may start a program named in the project .npmrc (browser, viewer, git)'),
      doctor: write('`npm doctor` may start a program named in the project .npmrc (browser, viewer, git)'),
      audit: readOnly('npm audit', {
        raise: [
          {
            when: { kind: 'positional', equals: ['fix'] },
            risk: 'Write',
            reason: '`npm audit fix` changes installed packages',
          },
        ],
      }),
      config: write('`npm config` changes npm settings', {
        readOnlyWhen: [{ maxPositionals: 2 }],
        raise: [
          {
            when: { kind: 'positional', equals: ['set', 'delete', 'rm', 'edit', 'fix'] },
            risk: 'Write',
            reason: '`npm config` changes npm settings',
          },
        ],
      }),
      version: readOnly('npm version', {
        raise: [
          {
            when: { kind: 'positionals', min: 1 },
            risk: 'Write',
            reason: '`npm version` changes the package version and may commit',
          },
        ],
      }),
      install: write('`npm install` changes node_modules and may run install scripts'),
      i: write('`npm install` changes node_modules and may run install scripts'),
      ci: write('`npm ci` deletes and reinstalls node_modules'),
      test: write('`npm test` runs the project test script', { opaque: true }),
      run: write('`npm run` runs a project script', { opaque: true }),
      exec: write('`npm exec` runs a package that may be downloaded', {
        runsArguments: true,
        commandOptions: ['-c', '--call'],
        valueOptions: ['-c', '--call', '-p', '--package'],
      }),
      x: write('`npm exec` runs a package that may be downloaded', {
        runsArguments: true,
        commandOptions: ['-c', '--call'],
        valueOptions: ['-c', '--call', '-p', '--package'],
      }),
    },
  }),
};

/** Names that start a Destructive command whatever follows (`mkfs.ext4`). */
export const DESTRUCTIVE_NAME_PREFIXES: readonly { readonly prefix: string; readonly reason: string }[] = [
  { prefix: 'mkfs', reason: '`mkfs` formats a disk, erasing everything on it' },
];

const GIT_LOG_VALUES = [
  '-n',
  '--max-count',
  '--skip',
  '--since',
  '--until',
  '--author',
  '--committer',
  '--grep',
  '--format',
  '--pretty',
  '-S',
  '-G',
  '-L',
  '--output',
];

const gitReader = (sub: string, extra: Partial<CommandRule> = {}): CommandRule => readOnly(`git ${sub}`, extra);

export const GIT_SUBCOMMANDS: Readonly<Record<string, CommandRule>> = {
  status: gitReader('status'),
  diff: gitReader('diff', { outputOptions: ['--output'], valueOptions: GIT_LOG_VALUES }),
  log: gitReader('log', { outputOptions: ['--output'], valueOptions: GIT_LOG_VALUES }),
  show: gitReader('show', { outputOptions: ['--output'], valueOptions: GIT_LOG_VALUES }),
  whatchanged: gitReader('whatchanged', { outputOptions: ['--output'], valueOptions: GIT_LOG_VALUES }),
  blame: gitReader('blame'),
  annotate: gitReader('annotate'),
  'ls-files': gitReader('ls-files'),
  'ls-tree': gitReader('ls-tree'),
  'ls-remote': gitReader('ls-remote', {
    raise: [
      {
        when: { kind: 'positional', prefix: ['ext::', 'fd::'] },
        risk: 'Write',
        reason: 'an `ext::` remote makes git run the command it names',
      },
    ],
    commandOptions: ['--upload-pack', '-u'],
    valueOptions: ['--upload-pack', '-u', '--sort'],
  }),
  'rev-parse': gitReader('rev-parse'),
  'rev-list': gitReader('rev-list'),
  describe: gitReader('describe'),
  shortlog: gitReader('shortlog'),
  'cat-file': gitReader('cat-file'),
  'show-ref': gitReader('show-ref'),
  'for-each-ref': gitReader('for-each-ref'),
  'name-rev': gitReader('name-rev'),
  'merge-base': gitReader('merge-base'),
  'count-objects': gitReader('count-objects'),
  'diff-tree': gitReader('diff-tree'),
  'diff-files': gitReader('diff-files'),
  'diff-index': gitReader('diff-index'),
  'check-ignore': gitReader('check-ignore'),
  'check-attr': gitReader('check-attr'),
  var: gitReader('var'),
  version: gitReader('version'),
  help: gitReader('help'),
  cherry: gitReader('cherry'),
  'range-diff': gitReader('range-diff'),
  'show-branch': gitReader('show-branch'),
  'verify-commit': gitReader('verify-commit'),
  'verify-tag': gitReader('verify-tag'),
  grep: gitReader('grep', {
    commandOptions: ['-O', '--open-files-in-pager'],
    valueOptions: ['-O', '--open-files-in-pager', '-e', '-f', '-m', '--max-count', '-A', '-B', '-C', '--threads'],
  }),
  branch: write('`git branch` creates or changes a branch', {
    readOnlyWhen: [
      {
        options: [
          '-a',
          '--all',
          '-r',
          '--remotes',
          '-v',
          '-vv',
          '--verbose',
          '--show-current',
          '--contains',
          '--no-contains',
          '--merged',
          '--no-merged',
          '--points-at',
          '--sort',
          '--format',
          '--color',
          '--no-color',
          '--column',
          '--no-column',
          '-i',
          '--ignore-case',
          '--omit-empty',
          '-q',
          '--quiet',
        ],
        maxPositionals: 0,
      },
      {
        requires: ['-l', '--list'],
        options: [
          '-l',
          '--list',
          '-a',
          '--all',
          '-r',
          '--remotes',
          '-v',
          '--verbose',
          '--sort',
          '--format',
          '--contains',
          '--merged',
          '--no-merged',
          '--points-at',
          '-i',
          '--ignore-case',
        ],
      },
    ],
    raise: [
      {
        when: { kind: 'flag', short: 'D' },
        risk: 'Destructive',
        reason: '`git branch -D` deletes a branch even if its commits are not merged',
      },
      {
        when: { kind: 'flag', short: 'MCf', long: ['--force'] },
        risk: 'Destructive',
        reason: '`git branch --force` moves or overwrites an existing branch',
      },
      {
        when: { kind: 'flag', short: 'd', long: ['--delete'] },
        risk: 'Write',
        reason: '`git branch -d` deletes a merged branch',
      },
    ],
    valueOptions: [
      '--contains',
      '--no-contains',
      '--merged',
      '--no-merged',
      '--points-at',
      '--sort',
      '--format',
      '-u',
      '--set-upstream-to',
    ],
  }),
  tag: write('`git tag` creates a tag', {
    readOnlyWhen: [
      {
        options: [
          '-l',
          '--list',
          '-n',
          '--contains',
          '--no-contains',
          '--merged',
          '--no-merged',
          '--points-at',
          '--sort',
          '--format',
          '--column',
          '-i',
          '--ignore-case',
        ],
        maxPositionals: 0,
      },
      { requires: ['-l', '--list'] },
    ],
    raise: [
      {
        when: { kind: 'flag', short: 'd', long: ['--delete'] },
        risk: 'Destructive',
        reason: '`git tag -d` deletes a tag',
      },
      {
        when: { kind: 'flag', short: 'f', long: ['--force'] },
        risk: 'Destructive',
        reason: '`git tag -f` moves an existing tag',
      },
    ],
    valueOptions: [
      '-m',
      '--message',
      '-F',
      '--file',
      '-u',
      '--local-user',
      '--contains',
      '--no-contains',
      '--merged',
      '--no-merged',
      '--points-at',
      '--sort',
      '--format',
    ],
  }),
  remote: write('`git remote` changes the configured remotes', {
    bare: gitReader('remote'),
    subcommands: { show: gitReader('remote show'), 'get-url': gitReader('remote get-url') },
  }),
  stash: write('`git stash` puts uncommitted changes aside', {
    bare: write('`git stash` puts uncommitted changes aside'),
    subcommands: {
      list: gitReader('stash list'),
      show: gitReader('stash show'),
      drop: destructive('`git stash drop` deletes stashed changes'),
      clear: destructive('`git stash clear` deletes every stash'),
    },
    otherSubcommand: write('`git stash` changes uncommitted work'),
  }),
  worktree: write('`git worktree` changes linked working trees', {
    subcommands: {
      list: gitReader('worktree list'),
      remove: write('`git worktree remove` removes a clean working tree', {
        raise: [
          {
            when: { kind: 'flag', short: 'f', long: ['--force'] },
            risk: 'Destructive',
            reason: '`git worktree remove --force` deletes a working tree with its uncommitted changes',
          },
        ],
      }),
    },
    otherSubcommand: write('`git worktree` changes linked working trees'),
  }),
  reflog: gitReader('reflog', {
    subcommands: {
      show: gitReader('reflog show'),
      exists: gitReader('reflog exists'),
      expire: destructive('`git reflog expire` deletes the record that lets lost commits be recovered'),
      delete: destructive('`git reflog delete` deletes the record that lets lost commits be recovered'),
    },
    otherSubcommand: gitReader('reflog'),
  }),
  config: write('`git config` changes git settings', {
    configValues: true,
    readOnlyWhen: [
      {
        requires: [
          '--get',
          '--get-all',
          '--get-regexp',
          '--get-urlmatch',
          '--list',
          '-l',
          '--get-color',
          '--get-colorbool',
        ],
      },
      {
        options: [
          '--global',
          '--local',
          '--system',
          '--show-origin',
          '--show-scope',
          '--includes',
          '--null',
          '-z',
          '--type',
          '--bool',
          '--int',
          '--path',
        ],
        maxPositionals: 1,
      },
    ],
    raise: [
      {
        when: { kind: 'positional', equals: ['set', 'unset', 'edit', 'rename-section', 'remove-section'] },
        risk: 'Write',
        reason: '`git config` changes git settings',
      },
    ],
    valueOptions: ['--file', '-f', '--blob', '--type', '--default'],
  }),
  add: write('`git add` stages changes'),
  commit: write('`git commit` records a commit', {
    valueOptions: ['-m', '--message', '-F', '--file', '-C', '-c', '--author', '--date', '--fixup', '--squash'],
  }),
  checkout: write('`git checkout` switches branches', {
    raise: [
      {
        when: { kind: 'flag', short: 'f', long: ['--force'] },
        risk: 'Destructive',
        reason: '`git checkout -f` throws away uncommitted changes',
      },
      {
        when: { kind: 'afterDoubleDash' },
        risk: 'Destructive',
        reason: '`git checkout -- PATH` throws away uncommitted changes to PATH',
      },
      {
        when: { kind: 'flag', long: ['--ours', '--theirs', '--pathspec-from-file'] },
        risk: 'Destructive',
        reason: '`git checkout` of paths throws away uncommitted changes to them',
      },
      {
        when: { kind: 'existingPath' },
        risk: 'Destructive',
        reason: '`git checkout PATH` throws away uncommitted changes to PATH',
      },
      {
        when: { kind: 'flag', short: 'B' },
        risk: 'Destructive',
        reason: '`git checkout -B` resets an existing branch',
      },
    ],
    valueOptions: ['-b', '-B', '--orphan', '--conflict'],
  }),
  switch: write('`git switch` switches branches', {
    raise: [
      {
        when: { kind: 'flag', short: 'fC', long: ['--force', '--discard-changes', '--force-create'] },
        risk: 'Destructive',
        reason: '`git switch --discard-changes` throws away uncommitted changes',
      },
    ],
    valueOptions: ['-c', '--create', '-C', '--force-create', '--orphan'],
  }),
  restore: write('`git restore --staged` unstages changes', {
    raise: [
      {
        when: { kind: 'flag', short: 'W', long: ['--worktree'] },
        risk: 'Destructive',
        reason: '`git restore` throws away uncommitted changes in the working tree',
      },
      {
        when: { kind: 'missingFlag', short: 'S', long: ['--staged'] },
        risk: 'Destructive',
        reason: '`git restore` throws away uncommitted changes in the working tree',
      },
    ],
    valueOptions: ['-s', '--source', '--pathspec-from-file', '--conflict'],
  }),
  reset: write('`git reset` moves the branch and unstages changes', {
    raise: [
      {
        when: { kind: 'flag', long: ['--hard'] },
        risk: 'Destructive',
        reason: '`git reset --hard` throws away uncommitted changes',
      },
    ],
  }),
  clean: write('`git clean` without `-f` deletes nothing', {
    readOnlyWhen: [{ requires: ['-n', '--dry-run'] }],
    raise: [
      {
        when: { kind: 'flag', short: 'f', long: ['--force'] },
        risk: 'Destructive',
        reason: '`git clean -f` deletes untracked files',
      },
    ],
    valueOptions: ['-e', '--exclude'],
  }),
  push: write('`git push` publishes commits', {
    raise: [
      {
        when: { kind: 'flag', short: 'f', long: ['--force', '--force-with-lease', '--force-if-includes'] },
        risk: 'Destructive',
        reason: '`git push --force` overwrites the remote branch history',
      },
      {
        when: { kind: 'positional', prefix: ['+'] },
        risk: 'Destructive',
        reason: 'a `+refspec` force-pushes, overwriting the remote branch history',
      },
      {
        when: { kind: 'flag', short: 'd', long: ['--delete'] },
        risk: 'Destructive',
        reason: '`git push --delete` deletes a remote branch',
      },
      {
        when: { kind: 'positional', prefix: [':'] },
        risk: 'Destructive',
        reason: '`git push REMOTE :BRANCH` deletes a remote branch',
      },
      {
        when: { kind: 'flag', long: ['--mirror', '--prune'] },
        risk: 'Destructive',
        reason: '`git push --mirror` or `--prune` deletes remote branches',
      },
    ],
    commandOptions: ['--receive-pack', '--exec'],
    valueOptions: ['-o', '--push-option', '--repo', '--receive-pack', '--exec'],
  }),
  fetch: write('`git fetch` downloads commits', {
    commandOptions: ['--upload-pack'],
    valueOptions: ['--upload-pack', '--depth', '-j', '--jobs'],
  }),
  pull: write('`git pull` merges remote commits', {
    commandOptions: ['--upload-pack'],
    valueOptions: ['--upload-pack', '--depth', '-s', '--strategy', '-X', '--strategy-option'],
  }),
  clone: write('`git clone` creates a repository', {
    commandOptions: ['--upload-pack', '-u'],
    configOptions: ['-c', '--config'],
    valueOptions: [
      '--upload-pack',
      '-u',
      '-c',
      '--config',
      '-b',
      '--branch',
      '--depth',
      '-o',
      '--origin',
      '--reference',
      '--separate-git-dir',
      '-j',
      '--jobs',
      '--filter',
      '--template',
    ],
  }),
  rebase: write('`git rebase` rewrites commits (the reflog keeps the old ones)', {
    commandOptions: ['-x', '--exec'],
    valueOptions: ['-x', '--exec', '--onto', '-s', '--strategy', '-X', '--strategy-option'],
  }),
  difftool: write('`git difftool` runs a diff program', {
    commandOptions: ['-x', '--extcmd'],
    valueOptions: ['-x', '--extcmd', '-t', '--tool'],
  }),
  submodule: write('`git submodule` changes submodules', {
    subcommands: {
      foreach: write('`git submodule foreach` runs a command in every submodule', { runsArguments: true }),
    },
    otherSubcommand: write('`git submodule` changes submodules'),
  }),
  bisect: write('`git bisect` moves HEAD while searching', {
    subcommands: { run: write('`git bisect run` runs a command at each step', { runsArguments: true }) },
    otherSubcommand: write('`git bisect` moves HEAD while searching'),
  }),
  archive: write('`git archive` writes an archive', {
    outputOptions: ['-o', '--output'],
    valueOptions: ['-o', '--output', '--format', '--prefix', '--remote', '--exec'],
    commandOptions: ['--exec'],
  }),
  rm: write('`git rm --cached` only unstages files', {
    raise: [
      {
        when: { kind: 'missingFlag', long: ['--cached'] },
        risk: 'Destructive',
        reason: '`git rm` deletes files from the working tree',
      },
    ],
  }),
  mv: write('`git mv` renames files', {
    raise: [
      {
        when: { kind: 'flag', short: 'f', long: ['--force'] },
        risk: 'Destructive',
        reason: '`git mv -f` overwrites an existing file',
      },
    ],
  }),
  gc: write('`git gc` packs the repository', {
    raise: [
      {
        when: { kind: 'arg', equals: ['--prune=now', '--prune=all'] },
        risk: 'Destructive',
        reason: '`git gc --prune=now` deletes unreachable commits for good',
      },
    ],
  }),
  prune: destructive('`git prune` deletes unreachable commits for good'),
  'update-ref': destructive('`git update-ref` moves or deletes a ref directly, leaving commits unreachable'),
  'symbolic-ref': write('`git symbolic-ref` points HEAD at another branch', {
    readOnlyWhen: [{ options: ['-q', '--quiet', '--short', '--no-recurse', '--recurse'], maxPositionals: 1 }],
    raise: [
      {
        when: { kind: 'flag', short: 'd', long: ['--delete'] },
        risk: 'Destructive',
        reason: '`git symbolic-ref -d` deletes a symbolic ref',
      },
    ],
  }),
  'read-tree': write('`git read-tree` replaces the index', {
    raise: [
      {
        when: { kind: 'flag', short: 'u' },
        risk: 'Destructive',
        reason: '`git read-tree -u` overwrites files in the working tree',
      },
      {
        when: { kind: 'flag', long: ['--reset'] },
        risk: 'Destructive',
        reason: '`git read-tree --reset` throws away the index and unmerged changes',
      },
    ],
  }),
  'checkout-index': write('`git checkout-index` writes files from the index', {
    raise: [
      {
        when: { kind: 'flag', short: 'f', long: ['--force'] },
        risk: 'Destructive',
        reason: '`git checkout-index -f` overwrites files in the working tree',
      },
    ],
  }),
  'filter-branch': destructive('`git filter-branch` rewrites history'),
  'filter-repo': destructive('`git filter-repo` rewrites history'),
};

/** Git options allowed before the subcommand; anything else makes the line unparseable. */
export const GIT_GLOBAL_OPTIONS = {
  flags: [
    '--no-pager',
    '-P',
    '-p',
    '--paginate',
    '--bare',
    '--no-replace-objects',
    '--literal-pathspecs',
    '--glob-pathspecs',
    '--noglob-pathspecs',
    '--icase-pathspecs',
    '--no-optional-locks',
    '--version',
    '--help',
    '-h',
    '--html-path',
    '--man-path',
    '--info-path',
    '--exec-path',
    '--no-advice',
    '--no-lazy-fetch',
  ],
  withValue: ['-C', '--git-dir', '--work-tree', '--namespace', '--super-prefix', '--list-cmds', '--attr-source'],
  /** Options that point git at another repository, whose own config may run programs. */
  otherRepository: ['-C', '--git-dir', '--work-tree'],
  /** `-c KEY=VALUE` with any other key may name a program git runs (`core.pager`, `alias.x=!cmd`). */
  safeConfigKeys: [
    'color.',
    'user.',
    'core.quotepath',
    'core.autocrlf',
    'core.safecrlf',
    'core.filemode',
    'core.ignorecase',
    'init.defaultbranch',
    'advice.',
    'log.',
    'format.pretty',
    'safe.directory',
    'pull.rebase',
    'pull.ff',
    'push.default',
    'commit.gpgsign',
    'tag.gpgsign',
    'column.',
    'i18n.',
    'gc.auto',
    'protocol.version',
    'status.',
    'merge.conflictstyle',
    'diff.renames',
    'diff.algorithm',
    'diff.noprefix',
    'rebase.autosquash',
    'rebase.autostash',
    'fetch.prune',
  ],
} as const;

/** Commands that run the rest of their arguments as a command. */
export interface WrapperRule {
  /** Short options without a value. */
  readonly shortFlags?: string;
  /** Short options that take a value (`-u USER`). */
  readonly shortValues?: string;
  /** Short options whose value, if any, is attached (`xargs -i{}`). */
  readonly shortOptionalValues?: string;
  readonly longFlags?: readonly string[];
  readonly longValues?: readonly string[];
  /** `nice -5`: a bare number is an option. */
  readonly numericOption?: boolean;
  /** Arguments before the command (`timeout DURATION`). */
  readonly leadingArguments?: number;
  /** `env VAR=x cmd`. */
  readonly assignments?: boolean;
  /** Options whose value is a command line (`env -S 'cmd args'`). */
  readonly stringOptions?: readonly string[];
  /** Options whose value is a file the wrapper overwrites (`time -o FILE`). */
  readonly outputOptions?: readonly string[];
  /** Options under which it runs nothing (`command -v`). */
  readonly noRunOptions?: readonly string[];
  /** xargs: the command also gets arguments read from stdin. */
  readonly appendsArguments?: boolean;
  /** xargs: with no command it runs this one. */
  readonly defaultCommand?: string;
  /** watch: the arguments are joined and run by `sh -c`. */
  readonly joinsArguments?: boolean;
  /** Options under which the arguments are joined and run by a shell (`sudo -s CMD`). */
  readonly shellOptions?: readonly string[];
  /** Options that run the command in another directory (`env -C DIR`): later relative paths and git calls are unknown. */
  readonly chdirOptions?: readonly string[];
  /** The least risk of anything it runs (`sudo`: Write). */
  readonly floor?: { readonly risk: Risk; readonly reason: string };
  /** Risk when it has no command to run, or runs none. */
  readonly aloneRisk: Risk;
}

export const WRAPPERS: Readonly<Record<string, WrapperRule>> = {
  command: { shortFlags: 'p', noRunOptions: ['-v', '-V'], aloneRisk: 'ReadOnly' },
  builtin: { aloneRisk: 'ReadOnly' },
  exec: { shortFlags: 'cl', shortValues: 'a', aloneRisk: 'ReadOnly' },
  env: {
    shortFlags: 'i0v',
    shortValues: 'uCS',
    longFlags: [
      '--ignore-environment',
      '--null',
      '--debug',
      '--default-signal',
      '--ignore-signal',
      '--block-signal',
      '--list-signal-handling',
    ],
    longValues: ['--unset', '--chdir', '--split-string'],
    assignments: true,
    stringOptions: ['-S', '--split-string'],
    chdirOptions: ['-C', '--chdir'],
    aloneRisk: 'ReadOnly',
  },
  sudo: {
    shortFlags: 'AbEHiKknPSsVv',
    shortValues: 'CDghprtTUu',
    longFlags: [
      '--askpass',
      '--background',
      '--bell',
      '--preserve-env',
      '--set-home',
      '--login',
      '--remove-timestamp',
      '--reset-timestamp',
      '--non-interactive',
      '--preserve-groups',
      '--shell',
      '--stdin',
      '--validate',
      '--version',
      '--help',
    ],
    longValues: [
      '--close-from',
      '--chdir',
      '--group',
      '--host',
      '--prompt',
      '--role',
      '--type',
      '--command-timeout',
      '--other-user',
      '--user',
    ],
    /** Not `-k`, `-v` or `-h`: `sudo -k CMD` still runs CMD, and `-h` also means `-h HOST`. */
    noRunOptions: ['-e', '--edit', '-l', '--list', '-V', '--version'],
    shellOptions: ['-s', '--shell', '-i', '--login'],
    chdirOptions: ['-D', '--chdir'],
    floor: { risk: 'Write', reason: '`sudo` runs a command as another user' },
    aloneRisk: 'Write',
  },
  doas: {
    shortFlags: 'Lns',
    shortValues: 'Cu',
    floor: { risk: 'Write', reason: '`doas` runs a command as another user' },
    aloneRisk: 'Write',
  },
  nice: { shortValues: 'n', longValues: ['--adjustment'], numericOption: true, aloneRisk: 'ReadOnly' },
  nohup: { aloneRisk: 'Write' },
  setsid: { shortFlags: 'cfw', longFlags: ['--ctty', '--fork', '--wait'], aloneRisk: 'Write' },
  timeout: {
    shortFlags: 'v',
    shortValues: 'ks',
    longFlags: ['--preserve-status', '--foreground', '--verbose'],
    longValues: ['--kill-after', '--signal'],
    leadingArguments: 1,
    aloneRisk: 'Write',
  },
  time: {
    shortFlags: 'pavq',
    shortValues: 'fo',
    longFlags: ['--portability', '--append', '--verbose', '--quiet'],
    longValues: ['--format', '--output'],
    outputOptions: ['-o', '--output'],
    aloneRisk: 'ReadOnly',
  },
  stdbuf: { shortValues: 'ioe', longValues: ['--input', '--output', '--error'], aloneRisk: 'Write' },
  ionice: {
    shortFlags: 't',
    shortValues: 'cnp',
    longValues: ['--class', '--classdata', '--pid'],
    // With no command it sets the class of the process `-p` names (`ionice -c3 -p PID`), not its own.
    aloneRisk: 'Write',
  },
  chroot: {
    longValues: ['--userspec', '--groups'],
    longFlags: ['--skip-chdir'],
    leadingArguments: 1,
    floor: { risk: 'Write', reason: '`chroot` runs a command in another root directory' },
    aloneRisk: 'Write',
  },
  busybox: { aloneRisk: 'ReadOnly' },
  unbuffer: { shortFlags: 'p', aloneRisk: 'Write' },
  xargs: {
    shortFlags: '0rtpxo',
    shortValues: 'adEILnPs',
    shortOptionalValues: 'eil',
    longFlags: ['--null', '--no-run-if-empty', '--verbose', '--interactive', '--exit', '--open-tty', '--show-limits'],
    longValues: [
      '--arg-file',
      '--delimiter',
      '--eof',
      '--replace',
      '--max-lines',
      '--max-args',
      '--max-procs',
      '--max-chars',
      '--process-slot-var',
    ],
    appendsArguments: true,
    defaultCommand: 'echo',
    floor: { risk: 'Write', reason: '`xargs` runs a command with arguments read from stdin, which tole cannot see' },
    aloneRisk: 'ReadOnly',
  },
  watch: {
    shortFlags: 'bcdegtx',
    shortValues: 'nq',
    longFlags: ['--beep', '--color', '--differences', '--errexit', '--chgexit', '--no-title', '--exec', '--precise'],
    longValues: ['--interval', '--equexit'],
    joinsArguments: true,
    aloneRisk: 'Write',
  },
  npx: {
    shortFlags: 'yq',
    shortValues: 'pc',
    longFlags: ['--yes', '--no', '--no-install', '--quiet', '--ignore-existing'],
    longValues: ['--package', '--call', '--shell'],
    stringOptions: ['-c', '--call'],
    floor: { risk: 'Write', reason: '`npx` runs a package that may be downloaded' },
    aloneRisk: 'Write',
  },
};

/** Shells that run `-c STRING`, a script file, or commands read from stdin. */
export const SHELLS = ['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'rbash'] as const;
export const SHELL_OPTIONS = {
  /** Short options without a value (`c` is handled apart). */
  shortFlags: 'abefhkmnptuvxBCEHPTilrsD',
  /** `-o OPTION`, `-O SHOPT` and their `+` forms. */
  shortValues: 'oO',
  longFlags: [
    '--login',
    '--noprofile',
    '--norc',
    '--posix',
    '--restricted',
    '--verbose',
    '--noediting',
    '--debugger',
    '--help',
    '--version',
    '--pretty-print',
    '--dump-strings',
    '--dump-po-strings',
    '--wordexp',
    '--no-config',
    '--private',
    '--interactive',
  ],
  /** These make the shell run a startup file tole does not inspect. */
  longValues: ['--rcfile', '--init-file'],
  /** These take a command line (fish). */
  stringOptions: ['--init-command', '--command'],
} as const;

/** Programs that run code piped into them when given no script. */
export const INTERPRETERS = [
  'python',
  'python2',
  'python3',
  'node',
  'perl',
  'ruby',
  'php',
  'lua',
  'deno',
  'bun',
  'pwsh',
  'osascript',
  'tclsh',
  'Rscript',
] as const;
/** Options after which an interpreter runs code from the command line, not from stdin. */
export const INTERPRETER_CODE_OPTIONS = ['-c', '-e', '-m', '-E', '-p', '--eval', '--print', '-r', '--run'] as const;

/** Programs whose output is a download: piping it into a shell runs code nobody has read. */
export const DOWNLOADERS = ['curl', 'wget', 'fetch', 'aria2c', 'http', 'xh'] as const;

/**
 * `PROGRAM --version` or `--help` only prints, for these programs; some have other spellings.
 * Not yarn or pnpm (a project's `.yarnrc` `yarnPath` or `packageManager` picks the program that
 * runs), nor cargo, rustc or rustup (`rust-toolchain.toml` may name a toolchain by path).
 */
export const VERSION_QUERIES: Readonly<Record<string, readonly string[]>> = {
  node: ['-v'],
  npx: ['-v'],
  python: ['-V'],
  python3: ['-V'],
  pip: ['-V'],
  pip3: ['-V'],
  go: ['version'],
  tsc: ['-v'],
  deno: ['-V'],
  bun: ['-v'],
  java: ['-version'],
  javac: ['-version'],
  ruby: ['-v'],
  perl: ['-v'],
  gcc: [],
  'g++': [],
  clang: [],
  cmake: [],
  make: ['-v'],
  docker: ['version'],
  kubectl: ['version'],
  bash: [],
  sh: [],
  zsh: [],
  tsx: [],
  vitest: [],
  jest: [],
  eslint: ['-v'],
  prettier: [],
  uv: [],
  pipx: [],
  gh: [],
  esbuild: [],
  sed: [],
  awk: [],
  gawk: [],
  php: ['-v'],
  lua: ['-v'],
};
export const VERSION_QUERY_ARGS = ['--version', '--help'] as const;

/** Variables whose value names a program that others run (`PAGER='…' git log`). */
export const COMMAND_VARIABLES = [
  'PAGER',
  'GIT_PAGER',
  'MANPAGER',
  'EDITOR',
  'VISUAL',
  'GIT_EDITOR',
  'GIT_SEQUENCE_EDITOR',
  'GIT_SSH_COMMAND',
  'GIT_SSH',
  'GIT_EXTERNAL_DIFF',
  'GIT_ASKPASS',
  'SSH_ASKPASS',
  'PROMPT_COMMAND',
  'LESSOPEN',
  'LESSCLOSE',
  'BROWSER',
] as const;
/**
 * `GIT_*` variables that only label or trace what git does; any other (`GIT_DIR`, `GIT_WORK_TREE`,
 * `GIT_INDEX_FILE`, `GIT_CEILING_DIRECTORIES` …) may point git at another repository and its config.
 */
export const GIT_HARMLESS_VARIABLES = [
  'GIT_AUTHOR_NAME',
  'GIT_AUTHOR_EMAIL',
  'GIT_AUTHOR_DATE',
  'GIT_COMMITTER_NAME',
  'GIT_COMMITTER_EMAIL',
  'GIT_COMMITTER_DATE',
  'GIT_TERMINAL_PROMPT',
  'GIT_TRACE',
  'GIT_FLUSH',
  'GIT_OPTIONAL_LOCKS',
  'GIT_LITERAL_PATHSPECS',
  'GIT_MERGE_AUTOEDIT',
  'GIT_ADVICE',
] as const;
/**
 * Variables programs read from their environment that tole knows to change no code, config or
 * path a program loads: setting them keeps a line read-only. Any other name a program may read
 * (no lowercase letter, or a `*_proxy`) is not proved inert: `GCONV_PATH=. iconv` loads a
 * library from the workspace, `JAVA_TOOL_OPTIONS` an agent, `LUA_INIT` runs code, `HOME` and
 * `XDG_CONFIG_HOME` move every config. Bash's own `REPLY`, `OPTIND`, `OPTARG` reach no program.
 */
export const INERT_ENVIRONMENT_VARIABLES = [
  'LANG',
  'LANGUAGE',
  'TZ',
  'COLUMNS',
  'LINES',
  'NO_COLOR',
  'FORCE_COLOR',
  'CLICOLOR',
  'CLICOLOR_FORCE',
  'REPLY',
  'OPTIND',
  'OPTARG',
] as const;
export const INERT_ENVIRONMENT_PREFIXES = ['LC_'] as const;
/** Variables that load code tole cannot see (`LD_PRELOAD=x.so ls`). */
export const CODE_LOADING_VARIABLE_PREFIXES = ['LD_', 'DYLD_', 'GIT_CONFIG_'] as const;
export const CODE_LOADING_VARIABLES = [
  'LD_PRELOAD',
  'LD_LIBRARY_PATH',
  'LD_AUDIT',
  'DYLD_INSERT_LIBRARIES',
  'DYLD_LIBRARY_PATH',
  'BASH_ENV',
  'ENV',
  'NODE_OPTIONS',
  'PYTHONSTARTUP',
  'PYTHONPATH',
  'PERL5OPT',
  'PERL5LIB',
  'RUBYOPT',
  'GIT_CONFIG',
  'GIT_CONFIG_PARAMETERS',
  'GIT_CONFIG_GLOBAL',
  'GIT_CONFIG_SYSTEM',
  'GIT_EXEC_PATH',
  'GIT_TEMPLATE_DIR',
  'SHELLOPTS',
  'BASHOPTS',
  'IFS',
] as const;
/** Builtins whose `NAME=value` arguments are assignments (`export PAGER=…`). */
export const DECLARING_BUILTINS = ['export', 'declare', 'typeset', 'local', 'readonly'] as const;

/** A script path that means "read the code from stdin". */
export const STDIN_SCRIPT_PATHS = ['/dev/stdin', '/dev/fd/0', '/proc/self/fd/0'] as const;
/** Script paths whose content tole cannot see (another open file, another process). */
export const OPAQUE_SCRIPT_PREFIXES = ['/dev/fd/', '/proc/'] as const;

/** Redirect targets that are not files. */
export const HARMLESS_TARGETS = ['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty', '/dev/zero'] as const;
export const HARMLESS_TARGET_PREFIXES = ['/dev/fd/'] as const;

export const FIND_ACTIONS = {
  delete: ['-delete'],
  /** `-exec CMD … ;` runs CMD, which is classified like any command. */
  exec: ['-exec', '-execdir', '-ok', '-okdir'],
  /** `-fprint FILE` truncates FILE; the number is how many values the action takes. */
  output: { '-fprint': 1, '-fprint0': 1, '-fls': 1, '-fprintf': 2 } as Readonly<Record<string, number>>,
} as const;

/** sed: options that keep it read-only, and the script forms known to only print or substitute. */
export const SED_RULES = {
  inPlace: { short: 'i', long: ['--in-place'] },
  flags: [
    '-n',
    '--quiet',
    '--silent',
    '-E',
    '-r',
    '--regexp-extended',
    '-s',
    '--separate',
    '-u',
    '--unbuffered',
    '-z',
    '--null-data',
    '--posix',
    '--debug',
    '--sandbox',
    '-b',
    '--binary',
    '--follow-symlinks',
  ],
  scriptOptions: ['-e', '--expression'],
  valueOptions: ['-e', '--expression', '-f', '--file', '-l', '--line-length'],
  /** One command: optional address range, then p d q = n N l, or s/…/…/ and y/…/…/ without `w` or `e`. */
  safeCommand:
    /^\s*(?:(?:\d+|\$|\/(?:[^/\\]|\\.)*\/I?)(?:\s*,\s*(?:\d+|\$|\/(?:[^/\\]|\\.)*\/I?|\+\d+))?\s*!?\s*)?(?:[pdDPqQ=nNlhHgGx]\d*|s([/|#,:@])(?:(?!\1)[^\\]|\\.)*\1(?:(?!\1)[^\\]|\\.)*\1[gpiImM0-9]*|y([/|#,])(?:(?!\2)[^\\]|\\.)*\2(?:(?!\2)[^\\]|\\.)*\2)?\s*$/,
} as const;

/** awk: a program is read-only when it has none of these, and only these options are used. */
export const AWK_RULES = {
  names: ['awk', 'gawk', 'mawk', 'nawk'],
  /** ARGV and ARGC: a program that sets them reads files its command line does not name. */
  unsafeProgram: /system|getline|[|>]|@|ENVIRON|close|fflush|ARGV|ARGC/,
  valueOptions: ['-F', '-v', '--field-separator', '--assign'],
} as const;

export const UNKNOWN_COMMAND_REASON = (name: string): string =>
  `\`${name}\` is not a command tole knows to be read-only`;

/**
 * The programs whose ReadOnly verdict holds with no sandbox: tole knows each loads no file of the
 * workspace as code or as settings naming a program (git's are vetted by tole's git). A reader
 * not listed (npm, which runs the `git` a project .npmrc names; a version query, whose program may
 * be a version manager's shim or a launcher that runs the project's own copy) waits for a key
 * where there is no sandbox: a rule added later is left out until someone vouches for it here.
 */
export const INERT_READERS: ReadonlySet<string> = new Set<string>([
  ...PLAIN_READERS,
  ...['cd', 'pushd', 'popd', 'rg', 'tree', 'sort', 'uniq', 'xxd', 'iconv', 'tee', 'ps', 'date', 'file'],
  ...['hostname', 'env', 'hash', 'crontab', 'find', 'kill', 'sed', 'awk', 'gawk', 'mawk', 'nawk', 'eval'],
  ...['command', 'builtin', 'exec', 'nice', 'time', 'busybox', 'xargs', 'VAR=value', 'git'],
]);
