# bash completion for svc (svc completion bash)
_svc() {
  local cur=${COMP_WORDS[COMP_CWORD]} IFS=$'\n' candidates
  # bash splits --flag=value into three words; svc __complete reads them that way.
  candidates=$(svc __complete bash "${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null) || return 0
  [ "$cur" = "=" ] && cur=""
  COMPREPLY=( $(compgen -W "$candidates" -- "$cur") )
}
complete -o nosort -F _svc svc 2>/dev/null || complete -F _svc svc
