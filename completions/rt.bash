# bash completion for rt — generated from the command definitions (rt completions bash)
# Install: rt completions bash > ~/.local/share/bash-completion/completions/rt

# PATH:@NAME: the definitions rt outline names in PATH. Bash splits words at colons (unless
# COMP_WORDBREAKS says otherwise), so the word typed is read from the line itself.
_rt_symbols() {
  local word="${COMP_LINE:0:COMP_POINT}"
  word="${word##*[[:space:]]}"
  [[ "$word" == *:@* ]] || return 1
  local file="${word%%:@*}" typed="${word##*:@}" pre="@" name
  [[ "$cur" == *:@* ]] && pre="${cur%%:@*}:@"
  COMPREPLY=()
  while IFS= read -r name; do
    [[ -n "$name" && "$name" == "$typed"* ]] && COMPREPLY+=("$pre$name")
  done < <(rt outline "$file" --names 2>/dev/null)
  compopt +o filenames 2>/dev/null
  return 0
}

_rt() {
  local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}"
  local valueflags='--window --root --color --max -e --regexp -C --context -A --after-context -B --before-context -g --glob --indent --in --expect --only'
  local cmd="" pos=0 i word opts
  # Find the command and how many arguments (not options or their values) follow it.
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="${COMP_WORDS[i]}"
    if [[ " $valueflags " == *" $word "* ]]; then ((i++)); continue; fi
    [[ "$word" == -* ]] && continue
    if [[ -z "$cmd" ]]; then cmd="$word"; else ((pos++)); fi
  done
  if [[ -z "$cmd" ]]; then
    case "$prev" in
      --color) COMPREPLY=($(compgen -W 'auto always never' -- "$cur")); return ;;
      --root) COMPREPLY=($(compgen -d -- "$cur")); return ;;
    esac
    COMPREPLY=($(compgen -W 'open scroll outline find grep grep-file edit insert delete create apply replace refs rename undo redo history mcp completions help --root --color --json --help -h --version -V' -- "$cur"))
    return
  fi
  case "$cmd" in
    open)
      opts='--window --hidden --no-ignore --root --color --json -h --help'
      case "$prev" in
      --color) COMPREPLY=($(compgen -W 'auto always never' -- "$cur")); return ;;
        --root) COMPREPLY=($(compgen -d -- "$cur")); return ;;
      esac
      if [[ " $valueflags " == *" $prev "* ]]; then return; fi
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "$opts" -- "$cur")); return; fi
      _rt_symbols && return
      case "$pos" in
        0) COMPREPLY=($(compgen -f -- "$cur")) ;;
        *) COMPREPLY=() ;;
      esac
      ;;
    scroll)
      opts='--window --root --color --json -h --help'
      case "$prev" in
      --color) COMPREPLY=($(compgen -W 'auto always never' -- "$cur")); return ;;
        --root) COMPREPLY=($(compgen -d -- "$cur")); return ;;
      esac
      if [[ " $valueflags " == *" $prev "* ]]; then return; fi
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "$opts" -- "$cur")); return; fi
      case "$pos" in
        0) COMPREPLY=($(compgen -f -- "$cur")) ;;
        1) COMPREPLY=($(compgen -W '+ -' -- "$cur")) ;;
        *) COMPREPLY=() ;;
      esac
      ;;
    outline)
      opts='--names --root --color --json -h --help'
      case "$prev" in
      --color) COMPREPLY=($(compgen -W 'auto always never' -- "$cur")); return ;;
        --root) COMPREPLY=($(compgen -d -- "$cur")); return ;;
      esac
      if [[ " $valueflags " == *" $prev "* ]]; then return; fi
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "$opts" -- "$cur")); return; fi
      case "$pos" in
        0) COMPREPLY=($(compgen -f -- "$cur")) ;;
        *) COMPREPLY=() ;;
      esac
      ;;
    find)
      opts='--max --hidden --no-ignore --root --color --json -h --help'
      case "$prev" in
      --color) COMPREPLY=($(compgen -W 'auto always never' -- "$cur")); return ;;
        --root) COMPREPLY=($(compgen -d -- "$cur")); return ;;
      esac
      if [[ " $valueflags " == *" $prev "* ]]; then return; fi
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "$opts" -- "$cur")); return; fi
      case "$pos" in
        0) COMPREPLY=() ;;
        1) COMPREPLY=($(compgen -d -- "$cur")) ;;
        *) COMPREPLY=() ;;
      esac
      ;;
    grep)
      opts='-e --regexp -i --ignore-case -S --smart-case -w --word -F --fixed -P --pcre2 -v --invert-match -o --only-matching -c --count -C --context -A --after-context -B --before-context -p --function -W --function-context -n --line-number --max -g --glob -l --files --hidden --no-ignore --root --color --json -h --help'
      case "$prev" in
      --color) COMPREPLY=($(compgen -W 'auto always never' -- "$cur")); return ;;
        --root) COMPREPLY=($(compgen -d -- "$cur")); return ;;
      esac
      if [[ " $valueflags " == *" $prev "* ]]; then return; fi
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "$opts" -- "$cur")); return; fi
      case "$pos" in
        0) COMPREPLY=() ;;
        *) COMPREPLY=($(compgen -f -- "$cur")) ;;
      esac
      ;;
    grep-file)
      opts='-e --regexp -i --ignore-case -S --smart-case -w --word -F --fixed -P --pcre2 -v --invert-match -o --only-matching -c --count -C --context -A --after-context -B --before-context -p --function -W --function-context -n --line-number --max --root --color --json -h --help'
      case "$prev" in
      --color) COMPREPLY=($(compgen -W 'auto always never' -- "$cur")); return ;;
        --root) COMPREPLY=($(compgen -d -- "$cur")); return ;;
      esac
      if [[ " $valueflags " == *" $prev "* ]]; then return; fi
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "$opts" -- "$cur")); return; fi
      case "$pos" in
        0) COMPREPLY=() ;;
        1) COMPREPLY=($(compgen -f -- "$cur")) ;;
        *) COMPREPLY=() ;;
      esac
      ;;
    edit)
      opts='--force --diff --dry-run --indent --no-check --root --color --json -h --help'
      case "$prev" in
      --indent) COMPREPLY=($(compgen -W 'auto keep' -- "$cur")); return ;;
      --color) COMPREPLY=($(compgen -W 'auto always never' -- "$cur")); return ;;
        --root) COMPREPLY=($(compgen -d -- "$cur")); return ;;
      esac
      if [[ " $valueflags " == *" $prev "* ]]; then return; fi
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "$opts" -- "$cur")); return; fi
      _rt_symbols && return
      case "$pos" in
        0) COMPREPLY=($(compgen -f -- "$cur")) ;;
        1) COMPREPLY=() ;;
        2) COMPREPLY=() ;;
        *) COMPREPLY=() ;;
      esac
      ;;
    insert)
      opts='--after --force --diff --dry-run --indent --no-check --root --color --json -h --help'
      case "$prev" in
      --indent) COMPREPLY=($(compgen -W 'auto keep' -- "$cur")); return ;;
      --color) COMPREPLY=($(compgen -W 'auto always never' -- "$cur")); return ;;
        --root) COMPREPLY=($(compgen -d -- "$cur")); return ;;
      esac
      if [[ " $valueflags " == *" $prev "* ]]; then return; fi
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "$opts" -- "$cur")); return; fi
      _rt_symbols && return
      case "$pos" in
        0) COMPREPLY=($(compgen -f -- "$cur")) ;;
        1) COMPREPLY=() ;;
        *) COMPREPLY=() ;;
      esac
      ;;
    delete)
      opts='--force --diff --dry-run --no-check --root --color --json -h --help'
      case "$prev" in
      --color) COMPREPLY=($(compgen -W 'auto always never' -- "$cur")); return ;;
        --root) COMPREPLY=($(compgen -d -- "$cur")); return ;;
      esac
      if [[ " $valueflags " == *" $prev "* ]]; then return; fi
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "$opts" -- "$cur")); return; fi
      _rt_symbols && return
      case "$pos" in
        0) COMPREPLY=($(compgen -f -- "$cur")) ;;
        1) COMPREPLY=() ;;
        2) COMPREPLY=() ;;
        *) COMPREPLY=() ;;
      esac
      ;;
    create)
      opts='--force --empty --diff --dry-run --no-check --root --color --json -h --help'
      case "$prev" in
      --color) COMPREPLY=($(compgen -W 'auto always never' -- "$cur")); return ;;
        --root) COMPREPLY=($(compgen -d -- "$cur")); return ;;
      esac
      if [[ " $valueflags " == *" $prev "* ]]; then return; fi
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "$opts" -- "$cur")); return; fi
      case "$pos" in
        0) COMPREPLY=($(compgen -f -- "$cur")) ;;
        *) COMPREPLY=() ;;
      esac
      ;;
    apply)
      opts='--force --diff --dry-run --indent --no-check --root --color --json -h --help'
      case "$prev" in
      --indent) COMPREPLY=($(compgen -W 'auto keep' -- "$cur")); return ;;
      --color) COMPREPLY=($(compgen -W 'auto always never' -- "$cur")); return ;;
        --root) COMPREPLY=($(compgen -d -- "$cur")); return ;;
      esac
      if [[ " $valueflags " == *" $prev "* ]]; then return; fi
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "$opts" -- "$cur")); return; fi
      case "$pos" in
        0) COMPREPLY=($(compgen -f -- "$cur")) ;;
        *) COMPREPLY=() ;;
      esac
      ;;
    replace)
      opts='-F --fixed -i --ignore-case -w --word -g --glob --hidden --no-ignore --in --expect --only --dry-run --max --no-check --root --color --json -h --help'
      case "$prev" in
      --in) COMPREPLY=($(compgen -W 'code all' -- "$cur")); return ;;
      --color) COMPREPLY=($(compgen -W 'auto always never' -- "$cur")); return ;;
        --root) COMPREPLY=($(compgen -d -- "$cur")); return ;;
      esac
      if [[ " $valueflags " == *" $prev "* ]]; then return; fi
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "$opts" -- "$cur")); return; fi
      case "$pos" in
        0) COMPREPLY=() ;;
        1) COMPREPLY=() ;;
        *) COMPREPLY=($(compgen -f -- "$cur")) ;;
      esac
      ;;
    refs)
      opts='--max --root --color --json -h --help'
      case "$prev" in
      --color) COMPREPLY=($(compgen -W 'auto always never' -- "$cur")); return ;;
        --root) COMPREPLY=($(compgen -d -- "$cur")); return ;;
      esac
      if [[ " $valueflags " == *" $prev "* ]]; then return; fi
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "$opts" -- "$cur")); return; fi
      _rt_symbols && return
      case "$pos" in
        0) COMPREPLY=($(compgen -f -- "$cur")) ;;
        *) COMPREPLY=() ;;
      esac
      ;;
    rename)
      opts='--dry-run --expect --force --no-check --root --color --json -h --help'
      case "$prev" in
      --color) COMPREPLY=($(compgen -W 'auto always never' -- "$cur")); return ;;
        --root) COMPREPLY=($(compgen -d -- "$cur")); return ;;
      esac
      if [[ " $valueflags " == *" $prev "* ]]; then return; fi
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "$opts" -- "$cur")); return; fi
      _rt_symbols && return
      case "$pos" in
        0) COMPREPLY=($(compgen -f -- "$cur")) ;;
        1) COMPREPLY=() ;;
        *) COMPREPLY=() ;;
      esac
      ;;
    undo)
      opts='--force --root --color --json -h --help'
      case "$prev" in
      --color) COMPREPLY=($(compgen -W 'auto always never' -- "$cur")); return ;;
        --root) COMPREPLY=($(compgen -d -- "$cur")); return ;;
      esac
      if [[ " $valueflags " == *" $prev "* ]]; then return; fi
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "$opts" -- "$cur")); return; fi
      case "$pos" in
        0) COMPREPLY=() ;;
        *) COMPREPLY=() ;;
      esac
      ;;
    redo)
      opts='--force --root --color --json -h --help'
      case "$prev" in
      --color) COMPREPLY=($(compgen -W 'auto always never' -- "$cur")); return ;;
        --root) COMPREPLY=($(compgen -d -- "$cur")); return ;;
      esac
      if [[ " $valueflags " == *" $prev "* ]]; then return; fi
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "$opts" -- "$cur")); return; fi
      case "$pos" in
        *) COMPREPLY=() ;;
      esac
      ;;
    history)
      opts='--root --color --json -h --help'
      case "$prev" in
      --color) COMPREPLY=($(compgen -W 'auto always never' -- "$cur")); return ;;
        --root) COMPREPLY=($(compgen -d -- "$cur")); return ;;
      esac
      if [[ " $valueflags " == *" $prev "* ]]; then return; fi
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "$opts" -- "$cur")); return; fi
      case "$pos" in
        0) COMPREPLY=($(compgen -f -- "$cur")) ;;
        *) COMPREPLY=() ;;
      esac
      ;;
    mcp)
      opts='--root --color --json -h --help'
      case "$prev" in
      --color) COMPREPLY=($(compgen -W 'auto always never' -- "$cur")); return ;;
        --root) COMPREPLY=($(compgen -d -- "$cur")); return ;;
      esac
      if [[ " $valueflags " == *" $prev "* ]]; then return; fi
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "$opts" -- "$cur")); return; fi
      case "$pos" in
        *) COMPREPLY=() ;;
      esac
      ;;
    completions)
      opts='--root --color --json -h --help'
      case "$prev" in
      --color) COMPREPLY=($(compgen -W 'auto always never' -- "$cur")); return ;;
        --root) COMPREPLY=($(compgen -d -- "$cur")); return ;;
      esac
      if [[ " $valueflags " == *" $prev "* ]]; then return; fi
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "$opts" -- "$cur")); return; fi
      case "$pos" in
        0) COMPREPLY=($(compgen -W 'bash zsh fish' -- "$cur")) ;;
        *) COMPREPLY=() ;;
      esac
      ;;
    help)
      COMPREPLY=($(compgen -W 'open scroll outline find grep grep-file edit insert delete create apply replace refs rename undo redo history mcp completions help agents' -- "$cur"))
      ;;
  esac
}
complete -o filenames -o bashdefault -F _rt rt
