/**
 * tole's git, steps 1 and 2 (see git-shim-script.ts): the refusal, tole's guard added after the
 * command's environment, PATH without its empty and relative entries, and the command's own
 * arguments read as git reads them (what finds the repository; the repository a server program
 * enters; options that bring a template or an include for a repository git makes). Bash text.
 */

/** The script's first part, after its data. */
export const SHIM_ARGUMENTS = `__tole_nl=$'\\n'
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

`;
