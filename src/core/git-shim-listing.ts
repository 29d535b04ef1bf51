/**
 * tole's git, steps 3 and 4 (see git-shim-script.ts): the config the real git would read, listed
 * and vetted key by key (inert, a program given its inert value, an include's target, core.worktree,
 * trustedGitKeys, tole's guard undone), then the real git. Bash text.
 */

/** The script's second part, after SHIM_ARGUMENTS. */
export const SHIM_LISTING = `# 3. The config the real git would read, vetted.
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
