/**
 * tole's git: the script put first on the PATH of every command tole runs outside its sandbox, so
 * that each git the command starts (itself, or a script, make, xargs, a Python child, git's own
 * `submodule foreach` or `rebase --exec`) is vetted when it starts, against the repository it
 * finds then: one the command unpacked, cloned or wrote a moment before included. Before the run,
 * tole vets only what exists then (git-repo-drivers.ts).
 *
 * The script, each time:
 * 1. adds tole's guard (git-guard-env.ts) to its environment after whatever the command left there;
 * 2. lists the config the real git would read (`git config --list`, given the command's `-C`,
 *    `--git-dir`, `--work-tree`, `-c` and environment, so it finds the same repository and the
 *    same includes);
 * 3. refuses (exit 128, saying what it found and what to do) when the guard's settings are undone
 *    (`-c`, GIT_CONFIG_PARAMETERS), a config file is included from the command line or the
 *    environment, or a key of the repository's config (or of a user config other than the one
 *    tole started with: a HOME or GIT_CONFIG_GLOBAL the command moved) is one tole cannot vouch
 *    for; a key that names a program gets its inert value, as before the run;
 * 4. runs the real git (resolved once by tole), with git's own programs folder pointed at a copy
 *    whose `git` is this script, so the gits git itself starts pass here too.
 * The vouching is the same data as before the run, written into the script: git-inert-keys.ts,
 * git-program-keys.ts and the user's trustedGitKeys.
 *
 * Written for bash run with -p: no BASH_ENV, no functions or shell options from the environment.
 * Everything the script sets is named `__tole_*` and set before it is read.
 */
import { GIT_GUARD_CONFIG } from './git-guard-env';
import { INERT_PATTERNS, NAMED_ONLY } from './git-inert-keys';
import { NAME_SLOT, PROGRAM_KEYS } from './git-program-keys';

export interface GitShimFacts {
  /** bash, absolute. */
  readonly bash: string;
  /** The real git, absolute. */
  readonly realGit: string;
  /** The folder given to git as its programs folder (GIT_EXEC_PATH): a copy of git's own whose gits are this script. */
  readonly execDir: string;
  /**
   * A regular file holding the config `[tole] stdin = read`, given to the listing as its stdin: a
   * config file git reads from stdin then lists tole.stdin (a file, reopened at each read, where a
   * pipe would be read empty after git's first read).
   */
  readonly stdinConfig: string;
  /** The workspace root, real path: a core.worktree outside it is not vouched for. */
  readonly workspaceRoot: string;
  /** The user's trustedGitKeys. */
  readonly trusted: readonly string[];
  /** The user's own config files (system and global scopes), as `git config --show-origin` names them when tole started. */
  readonly userOrigins: readonly string[];
}

/** `text` as one single-quoted shell word. */
const word = (text: string): string => `'${text.replaceAll("'", `'\\''`)}'`;

/** A bash associative array literal whose keys are `keys`. */
const keySet = (name: string, keys: Iterable<string>): string =>
  `declare -A ${name}=(${[...keys].map((key) => `[${word(key)}]=1`).join(' ')})`;

/** A bash array literal of `items`. */
const list = (name: string, items: readonly string[]): string => `${name}=(${items.map(word).join(' ')})`;

/** A trusted key as the script compares it: its canonical form, or a prefix when it ends in `.*`. */
function trustedForms(trusted: readonly string[]): { exact: string[]; prefixes: string[] } {
  const canonical = (key: string): string => {
    const first = key.indexOf('.');
    const last = key.lastIndexOf('.');
    if (first === last) return key.toLowerCase();
    return `${key.slice(0, first).toLowerCase()}${key.slice(first, last)}${key.slice(last).toLowerCase()}`;
  };
  const exact = trusted.filter((item) => !item.endsWith('.*')).map(canonical);
  const prefixes = trusted
    .filter((item) => item.endsWith('.*'))
    .map((item) => canonical(`${item.slice(0, -2)}.x`).slice(0, -1));
  return { exact, prefixes };
}

/**
 * For each section whose keys may name a program, the PROGRAM_KEYS that can match there (their
 * offsets in the script's flat key/value list, in PROGRAM_KEYS' order): a key is tried only
 * against its own section's patterns, as bash compiles a regular expression at each match.
 */
export function programKeysBySection(): Map<string, number[]> {
  const bySection = new Map<string, number[]>();
  PROGRAM_KEYS.forEach((program, index) => {
    for (const section of /^\^\(?([a-z|]+)/.exec(program.key)![1]!.split('|')) {
      const offsets = bySection.get(section) ?? [];
      offsets.push(index * 2);
      bySection.set(section, offsets);
    }
  });
  return bySection;
}

/**
 * INERT_PATTERNS as one variable per section, `__tole_inert_<section>` (`-` written `_`: git's
 * section names hold only letters, digits and `-`), each the rest of its patterns between
 * newlines, which no key git lists holds: a plain string is set at once, where bash took ~1 ms
 * to fill an associative array of ~290 keys at each git's start.
 */
function inertBySection(): string[] {
  const rests = new Map<string, string[]>();
  for (const pattern of INERT_PATTERNS) {
    const dot = pattern.indexOf('.');
    const section = pattern.slice(0, dot);
    if (!/^[a-z0-9-]+$/.test(section)) throw new Error(`inert pattern with an unexpected section: ${pattern}`);
    rests.set(section, [...(rests.get(section) ?? []), pattern.slice(dot + 1)]);
  }
  return [...rests].map(
    ([section, list]) => `__tole_inert_${section.replaceAll('-', '_')}=${word(`\n${list.join('\n')}\n`)}`,
  );
}

/** A bash associative array literal from `entries`. */
const table = (name: string, entries: Iterable<readonly [string, string]>): string =>
  `declare -A ${name}=(${[...entries].map(([key, value]) => `[${word(key)}]=${word(value)}`).join(' ')})`;

/** The whole script. */
export function gitShimScript(facts: GitShimFacts): string {
  const trusted = trustedForms(facts.trusted);
  const data = [
    `__tole_real=${word(facts.realGit)}`,
    `__tole_exec=${word(facts.execDir)}`,
    `__tole_stdin=${word(facts.stdinConfig)}`,
    `__tole_root=${word(facts.workspaceRoot)}`,
    ...inertBySection(),
    keySet('__tole_named', NAMED_ONLY),
    keySet('__tole_user', facts.userOrigins),
    keySet('__tole_trusted', trusted.exact),
    list('__tole_trusted_prefixes', trusted.prefixes),
    table(
      '__tole_program_index',
      [...programKeysBySection()].map(([section, offsets]) => [section, offsets.join(' ')] as const),
    ),
    // One expression per section matching where any of its own does: most keys of such a section
    // (core.bare…) name no program, and are then tried once instead of once per pattern.
    table(
      '__tole_program_any',
      [...programKeysBySection()].map(
        ([section, offsets]) =>
          [section, offsets.map((offset) => `(${PROGRAM_KEYS[offset / 2]!.key})`).join('|')] as const,
      ),
    ),
    list(
      '__tole_program_keys',
      PROGRAM_KEYS.flatMap((program) => [program.key, program.value]),
    ),
    list('__tole_guard', GIT_GUARD_CONFIG.flat()),
    `__tole_slot=${word(NAME_SLOT)}`,
  ];
  return `#!${facts.bash} -p
# tole's git: vets the config of the repository each git finds when it starts, then runs the real
# git. Written by tole (src/core/git-shim-script.ts) for the commands it runs outside its sandbox.
set +o posix
unset BASH_COMPAT
IFS=$' \\t\\n'
for __tole_v in "\${!__tole_@}"; do unset "$__tole_v"; done
__tole_lc_set=\${LC_ALL+x}
__tole_lc=\${LC_ALL-}
LC_ALL=C
${data.join('\n')}
${BODY}`;
}

/** What the script does with its data (see the module's comment). */
const BODY = `__tole_nl=$'\\n'
__tole_sq="'"
__tole_esq="'\\''"
__tole_problems=()
__tole_unvouched=()
__tole_worktree=

__tole_refuse() {
  local found= item keys=
  for item in "\${__tole_problems[@]}"; do found+="\${found:+; }$item"; done
  if (( \${#__tole_unvouched[@]} > 0 )); then
    for item in "\${__tole_unvouched[@]:0:5}"; do keys+="\${keys:+; }$item"; done
    (( \${#__tole_unvouched[@]} > 5 )) && keys+="; and $(( \${#__tole_unvouched[@]} - 5 )) more"
    found+="\${found:+; }it found git config keys tole cannot vouch for, which may name a program for git to run: $keys"
  fi
  printf '%s\\n' "tole: git was not run: $found. This command runs outside tole's sandbox, where tole lets git run only what it vouches for, checked when each git starts. Run it in the sandbox (call bash without outside_sandbox), where what git runs is confined; or remove what is not needed (git config --unset <key>); a key you know names no program can be listed in trustedGitKeys in your own tole config (~/.config/tole/config.json)." >&2
  exit 128
}

# Invoked as git-<command> (from git's programs folder): the same as git <command>.
__tole_name=\${0##*/}
if [[ $__tole_name == git-?* ]]; then set -- "\${__tole_name#git-}" "$@"; fi

# 1. tole's guard, after whatever the command's environment holds.
__tole_count=\${GIT_CONFIG_COUNT-}
[[ $__tole_count =~ ^[0-9]{1,6}$ ]] || __tole_count=0
__tole_count=$((10#$__tole_count))
__tole_add() {
  export "GIT_CONFIG_KEY_$__tole_count=$1" "GIT_CONFIG_VALUE_$__tole_count=$2"
  __tole_count=$((__tole_count + 1))
}
declare -A __tole_want=()
for ((__tole_i = 0; __tole_i < \${#__tole_guard[@]}; __tole_i += 2)); do
  __tole_add "\${__tole_guard[__tole_i]}" "\${__tole_guard[__tole_i + 1]}"
  __tole_k=\${__tole_guard[__tole_i]}
  __tole_want[\${__tole_k,,}]=\${__tole_guard[__tole_i + 1]}
done
if [[ -z \${GIT_SSH_COMMAND+x} && -z \${GIT_SSH+x} ]]; then
  __tole_add core.sshCommand ssh
  __tole_want[core.sshcommand]=ssh
fi
export GIT_CONFIG_COUNT=$__tole_count
export GIT_EXEC_PATH=$__tole_exec
# git finds programs a repository names (git-remote-<helper> for a <helper>:: url or a
# remote.*.vcs) on PATH: an empty entry (the cwd) or a relative one would find the repository's own.
# Only absolute entries are kept.
if [[ -n \${PATH+x} ]]; then
  __tole_r=$PATH:
  __tole_p=
  while [[ -n $__tole_r ]]; do
    __tole_d=\${__tole_r%%:*}
    __tole_r=\${__tole_r#*:}
    [[ $__tole_d == /* ]] && __tole_p+=\${__tole_p:+:}$__tole_d
  done
  export PATH=$__tole_p
fi

# 2. What finds the repository, as the real git reads it.
__tole_pre=()
__tole_sub=
__tole_paged=
__tole_i=1
while (( __tole_i <= $# )); do
  __tole_a=\${!__tole_i}
  __tole_n=$((__tole_i + 1))
  case $__tole_a in
    -C|-c|--config-env|--git-dir|--work-tree|--namespace)
      __tole_pre+=("$__tole_a" "\${!__tole_n-}"); __tole_i=$((__tole_i + 2)) ;;
    --config-env=*|--git-dir=*|--work-tree=*|--namespace=*|--bare)
      __tole_pre+=("$__tole_a"); __tole_i=$((__tole_i + 1)) ;;
    --exec-path=*)
      __tole_problems+=("the command gives git --exec-path=, which runs git's programs from another folder")
      __tole_i=$((__tole_i + 1)) ;;
    --super-prefix|--attr-source)
      __tole_i=$((__tole_i + 2)) ;;
    -p|--paginate)
      __tole_paged=1; __tole_i=$((__tole_i + 1)) ;;
    -*)
      __tole_i=$((__tole_i + 1)) ;;
    *)
      __tole_sub=$__tole_a; break ;;
  esac
done

# git's server programs (started by a local push, fetch, clone or archive --remote, as
# git-receive-pack DIR) enter the repository DIR names, not the cwd's: that one is listed, found as
# git's enter_repo finds it (DIR/.git, DIR, DIR.git/.git, DIR.git; DIR alone under --strict).
case $__tole_sub in
  receive-pack|upload-pack|upload-archive|upload-archive--writer)
    __tole_dir=
    __tole_has=
    __tole_strict=
    __tole_j=$((__tole_i + 1))
    while (( __tole_j <= $# )); do
      __tole_a=\${!__tole_j}
      if [[ -n $__tole_has ]]; then __tole_dir=$__tole_a; break; fi
      case $__tole_a in
        --) __tole_has=1 ;;
        --strict) __tole_strict=1 ;;
        -*) ;;
        *) __tole_dir=$__tole_a; break ;;
      esac
      __tole_j=$((__tole_j + 1))
    done
    case $__tole_dir in '~/'*) __tole_dir=\${HOME-}/\${__tole_dir#'~/'} ;; '~'*) __tole_dir= ;; esac
    __tole_found=
    if [[ -n $__tole_dir ]]; then
      __tole_suffixes=('/.git' '' '.git/.git' '.git')
      [[ -n $__tole_strict ]] && __tole_suffixes=('')
      for __tole_s in "\${__tole_suffixes[@]}"; do
        __tole_c=$__tole_dir$__tole_s
        if [[ -f $__tole_c || ( -d $__tole_c && -x $__tole_c/objects && -x $__tole_c/refs && -e $__tole_c/HEAD ) ]]; then
          __tole_found=$__tole_c
          break
        fi
      done
    fi
    for __tole_a in "\${__tole_pre[@]}"; do
      [[ $__tole_a == -C || $__tole_a == --git-dir* ]] && __tole_found=
    done
    if [[ -z $__tole_found ]]; then
      __tole_problems+=("tole could not tell which repository git $__tole_sub enters (\${__tole_dir:-no folder given}), so could not vet its config")
    else
      __tole_pre+=("--git-dir=$__tole_found")
    fi ;;
esac
__tole_vet=1
# git alone, or asked only for its version, help or folders, reads no repository.
[[ -z $__tole_sub ]] && __tole_vet=
# git config reads and writes settings and runs nothing, unless it opens an editor or a pager
# (-p, or the repository's pager.config under a terminal). git takes any unambiguous prefix of a
# long option (--ed, --edi): each counts as --edit. Unvetted, it gets no editor or pager at all.
if [[ $__tole_sub == config ]]; then
  __tole_vet=$__tole_paged
  for __tole_a in "$@"; do
    [[ $__tole_a == edit || ( $__tole_a == --e* && --edit == "$__tole_a"* ) ]] && __tole_vet=1
    [[ $__tole_a =~ ^-[a-zA-Z]*e ]] && __tole_vet=1
  done
  if [[ -z $__tole_vet ]]; then export GIT_EDITOR=false GIT_PAGER=cat; fi
fi
# --template (or any prefix git takes for it: --temp, --templa=) gives the new repository a folder's
# config and hooks.
for __tole_a in "$@"; do
  __tole_k=\${__tole_a%%=*}
  [[ $__tole_k == --te* && --template == "$__tole_k"* ]] && __tole_problems+=("the command gives git $__tole_k, a template whose folder's config and hooks go into the repository git makes")
done
# clone's (and init's) own -c/--config KEY=VALUE is written into the new repository's config, read
# after this listing: an include there hides its programs in a file, a template dir brings hooks.
if [[ $__tole_sub == clone || $__tole_sub == init ]]; then
  __tole_j=$((__tole_i + 1))
  while (( __tole_j <= $# )); do
    __tole_a=\${!__tole_j}
    __tole_n=$((__tole_j + 1))
    __tole_v=
    __tole_has=
    case $__tole_a in
      --) break ;;
      --*=*)
        __tole_k=\${__tole_a%%=*}
        if [[ $__tole_k == --c* && --config == "$__tole_k"* ]]; then __tole_v=\${__tole_a#*=}; __tole_has=1; fi ;;
      --*)
        if [[ $__tole_a == --c* && --config == "$__tole_a"* ]]; then __tole_v=\${!__tole_n-}; __tole_has=1; fi ;;
      -?*)
        __tole_r=\${__tole_a#-}
        while [[ -n $__tole_r ]]; do
          __tole_c=\${__tole_r:0:1}; __tole_r=\${__tole_r:1}
          case $__tole_c in
            c) if [[ -n $__tole_r ]]; then __tole_v=$__tole_r; else __tole_v=\${!__tole_n-}; fi; __tole_has=1; break ;;
            o|b|u|j) break ;;
          esac
        done ;;
    esac
    if [[ -n $__tole_has ]]; then
      case \${__tole_v,,} in
        include.*|includeif.*|init.templatedir*)
          __tole_problems+=("the command gives git $__tole_sub the setting $__tole_v, an include or a template for the repository it makes") ;;
      esac
    fi
    __tole_j=$((__tole_j + 1))
  done
fi
[[ -n \${GIT_TEMPLATE_DIR+x} ]] && __tole_problems+=("GIT_TEMPLATE_DIR is set, whose folder's config and hooks go into the repository git makes")
(( \${#__tole_problems[@]} > 0 )) && __tole_refuse

# 3. The config the real git would read, vetted.
__tole_is_program() {
  local key=$1 j name esc template
  __tole_value=
  local found=
  [[ -n \${__tole_program_any[\${key%%.*}]+x} && $key =~ \${__tole_program_any[\${key%%.*}]} ]] || return 1
  for j in \${__tole_program_index[\${key%%.*}]}; do
    if [[ $key =~ \${__tole_program_keys[j]} ]]; then
      name=\${BASH_REMATCH[1]}
      esc=\${name//"$__tole_sq"/"$__tole_esq"}
      template=\${__tole_program_keys[j + 1]}
      __tole_value=\${template//"$__tole_slot"/"$esc"}
      found=1
    fi
  done
  [[ -n $found ]]
}
__tole_names_no_program() {
  local key=$1 value=$2 has_value=$3 section variable middle= sub literal= name inert
  section=\${key%%.*}; section=\${section,,}
  variable=\${key##*.}; variable=\${variable,,}
  [[ -z $section || $section == *[!a-z0-9-]* ]] && return 1
  if [[ $key == *.*.* ]]; then
    sub=\${key#*.}; sub=\${sub%.*}
    middle='<>.'
    literal="$sub.$variable"
  fi
  # The section's inert patterns, each between newlines (see inertBySection).
  name=__tole_inert_\${section//-/_}
  inert=\${!name-}
  [[ $inert == *"$__tole_nl$middle$variable$__tole_nl"* ]] && return 0
  [[ -n \${__tole_named[$section.$middle$variable]+x} && $value != */* ]] && return 0
  [[ $inert == *"$__tole_nl$middle*$__tole_nl"* ]] && return 0
  [[ -n $literal && $inert == *"$__tole_nl$literal$__tole_nl"* ]] && return 0
  return 1
}
__tole_trusted_key() {
  local key=$1 prefix
  [[ -n \${__tole_trusted[$key]+x} ]] && return 0
  for prefix in "\${__tole_trusted_prefixes[@]}"; do
    [[ $key == "$prefix"* ]] && return 0
  done
  return 1
}

if [[ -n $__tole_vet ]]; then
  __tole_items=()
  # The listing ends with one more setting, given last on git's command line: git reads the command
  # line after every config file and include, so the listing holds it last only when git read them
  # all (a config git cannot parse lists nothing). Its stdin is a config of its own: a config file
  # git reads from stdin (/dev/stdin, or a link leading there) lists tole.stdin, where the real git
  # would read the command's stdin, unseen. git is exec'd, without a shell waiting on it for
  # its status: bash's \`wait $!\` on a process substitution now and then finds no status.
  mapfile -d '' -t __tole_items < <(unset GIT_CONFIG; exec "$__tole_real" "\${__tole_pre[@]}" -c tole.listed=whole config --list --show-scope --show-origin -z <"$__tole_stdin")
  __tole_n=\${#__tole_items[@]}
  if (( __tole_n < 3 )) || [[ \${__tole_items[__tole_n - 3]} != command || \${__tole_items[__tole_n - 1]} != "tole.listed\${__tole_nl}whole" ]]; then
    __tole_problems+=("tole could not read the config git would read (git config --list failed, above)")
    __tole_refuse
  fi
  unset "__tole_items[__tole_n - 1]" "__tole_items[__tole_n - 2]" "__tole_items[__tole_n - 3]"
  declare -A __tole_last=()
  declare -A __tole_settings=()
  __tole_order=()
  declare -A __tole_seen=()
  for ((__tole_i = 0; __tole_i + 2 < \${#__tole_items[@]}; __tole_i += 3)); do
    __tole_scope=\${__tole_items[__tole_i]}
    __tole_origin=\${__tole_items[__tole_i + 1]}
    __tole_item=\${__tole_items[__tole_i + 2]-}
    __tole_key=\${__tole_item%%$'\\n'*}
    __tole_has=
    __tole_val=
    if [[ $__tole_item == *$'\\n'* ]]; then __tole_has=1; __tole_val=\${__tole_item#*$'\\n'}; fi
    [[ -z $__tole_key ]] && continue
    if [[ $__tole_key == tole.stdin ]]; then
      __tole_problems+=("git reads a config file (\${__tole_origin#file:}) from its stdin, which tole cannot read before it: make it a regular file")
      continue
    fi
    if [[ -n \${__tole_want[$__tole_key]+x} ]]; then
      if [[ -n $__tole_has ]]; then __tole_last[$__tole_key]=v$__tole_val; else __tole_last[$__tole_key]=bare; fi
    fi
    # Whether the key is an include: include.path, or includeIf.* ending in .path.
    __tole_include=
    case \${__tole_key,,} in include.path|includeif.*.path|includeif.path) __tole_include=1 ;; esac
    case $__tole_scope in
      command)
        if [[ -n $__tole_include ]]; then
          __tole_problems+=("the command gives git an include of a config file ($__tole_key = $__tole_val) on its command line or in its environment")
        elif [[ \${__tole_key,,} == init.templatedir && -n $__tole_val ]]; then
          __tole_problems+=("the command gives git init.templateDir = $__tole_val, a template whose folder's config and hooks go into the repository git makes")
        elif [[ $__tole_origin == file:* ]]; then
          __tole_problems+=("git read $__tole_key from \${__tole_origin#file:}, a file included from the command line or the environment")
        fi
        continue ;;
      system|global)
        [[ -n \${__tole_user[$__tole_origin]+x} ]] && continue ;;
    esac
    __tole_where="\${__tole_origin#file:}"
    if __tole_is_program "$__tole_key"; then
      if [[ -z \${__tole_settings[$__tole_key]+x} ]]; then
        __tole_settings[$__tole_key]=$__tole_value
        __tole_order+=("$__tole_key")
      fi
    elif [[ $__tole_key == core.worktree ]]; then
      __tole_worktree=1
    elif [[ -n $__tole_include ]]; then
      # The listing read the include with its stdin /dev/null; the real git reads it again with the
      # command's. A target that is not a plain regular file (/dev/stdin, /proc/self/fd/0, a FIFO, a
      # socket, a link, which may lead to one) may hold what the listing never saw: refused.
      __tole_t=$__tole_val
      case $__tole_t in
        '~/'*) __tole_t=\${HOME-}/\${__tole_t#'~/'} ;;
        '~'*) __tole_t=/dev/unknown ;;
        /*) ;;
        *) __tole_t=\${__tole_where%/*}/$__tole_t ;;
      esac
      # Its folder as it really is: a link to /proc/self or /dev is no plain folder either.
      __tole_d=$(cd -P -- "\${__tole_t%/*}/" 2>/dev/null && pwd -P)
      case $__tole_d/ in /dev/*|/proc/*|/sys/*) __tole_t=/dev/unknown ;; esac
      if [[ $__tole_t == /dev/* || $__tole_t == /proc/* || $__tole_t == /sys/* || -L $__tole_t || ( -e $__tole_t && ! -f $__tole_t ) ]]; then
        __tole_problems+=("the config in $__tole_where includes $__tole_val, which is not a regular file (a device, a pipe, a link or a file of /proc may give git what tole did not read): include a regular file by its own path")
      fi
    elif __tole_names_no_program "$__tole_key" "$__tole_val" "$__tole_has" || __tole_trusted_key "$__tole_key"; then
      :
    elif [[ -z \${__tole_seen[$__tole_key]+x} ]]; then
      __tole_seen[$__tole_key]=1
      __tole_unvouched+=("$__tole_key (in $__tole_where)")
    fi
  done
  for __tole_k in "\${!__tole_want[@]}"; do
    if [[ \${__tole_last[$__tole_k]-} != "v\${__tole_want[$__tole_k]}" ]]; then
      __tole_problems+=("a setting given on git's command line or in its environment (-c, --config-env, GIT_CONFIG_PARAMETERS) undoes tole's $__tole_k")
    fi
  done
  if [[ -n $__tole_worktree ]]; then
    __tole_top=$(unset GIT_CONFIG; exec "$__tole_real" "\${__tole_pre[@]}" rev-parse --path-format=absolute --show-toplevel </dev/null 2>/dev/null)
    __tole_top=$(cd -P -- "$__tole_top" 2>/dev/null && pwd -P)
    if [[ -z $__tole_top || ( $__tole_top != "$__tole_root" && $__tole_top != "$__tole_root"/* ) ]]; then
      __tole_problems+=("the repository's core.worktree puts its work tree outside the workspace (\${__tole_top:-a folder tole cannot find})")
    fi
  fi
  (( \${#__tole_problems[@]} + \${#__tole_unvouched[@]} > 0 )) && __tole_refuse
  for __tole_k in "\${__tole_order[@]}"; do __tole_add "$__tole_k" "\${__tole_settings[$__tole_k]}"; done
  export GIT_CONFIG_COUNT=$__tole_count
fi

# 4. The real git.
if [[ -n $__tole_lc_set ]]; then LC_ALL=$__tole_lc; else unset LC_ALL; fi
exec "$__tole_real" "$@"
`;
