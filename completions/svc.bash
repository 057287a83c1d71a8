# bash completion for svc (svc completion bash)
_svc() {
  local cur=${COMP_WORDS[COMP_CWORD]} line quoted
  [ "$cur" = "=" ] && cur=""
  COMPREPLY=()
  # One candidate a line, kept as text: compgen -W would run a $(…) or expand a glob in a value
  # (a sub-account's name). Each is quoted for the command line (a name with spaces stays one word).
  # bash splits --flag=value into three words; svc __complete reads them that way.
  while IFS= read -r line; do
    [ -n "$line" ] || continue
    printf -v quoted %q "$line"
    if [[ $quoted == "$cur"* ]]; then COMPREPLY+=("$quoted"); fi
  done < <(svc __complete bash "${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null)
}
complete -o nosort -F _svc svc 2>/dev/null || complete -F _svc svc
