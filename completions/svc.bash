# bash completion for svc (generated from the command tree: svc completion bash)
_svc() {
  local cur words_
  cur="${COMP_WORDS[COMP_CWORD]}"
  if [ "$COMP_CWORD" -eq 1 ]; then
    words_='login profiles context server messages conversations numbers webhooks events keys subaccounts agency trigger clock api completion help --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help'
  else
    case "${COMP_WORDS[1]}" in
    login)
      if [ "$COMP_CWORD" -eq 2 ]; then words_=' --api-key-stdin --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help'; else
      case "${COMP_WORDS[2]}" in
        *) ;;
        *) words_='--version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
      esac; fi ;;
    profiles)
      if [ "$COMP_CWORD" -eq 2 ]; then words_='list show use add remove  --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help'; else
      case "${COMP_WORDS[2]}" in
        list) words_=' --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
        show) words_=' --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
        use) words_=' --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
        add) words_='--api-key-stdin --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
        remove) words_=' --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
        *) words_='--version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
      esac; fi ;;
    context)
      if [ "$COMP_CWORD" -eq 2 ]; then words_='show use clear  --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help'; else
      case "${COMP_WORDS[2]}" in
        show) words_=' --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
        use) words_=' --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
        clear) words_=' --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
        *) words_='--version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
      esac; fi ;;
    server)
      if [ "$COMP_CWORD" -eq 2 ]; then words_='start stop status  --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help'; else
      case "${COMP_WORDS[2]}" in
        start) words_='--host --port --data --clock --detach --rate-limit --log --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
        stop) words_='--data --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
        status) words_='--data --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
        *) words_='--version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
      esac; fi ;;
    messages)
      if [ "$COMP_CWORD" -eq 2 ]; then words_='send list get  --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help'; else
      case "${COMP_WORDS[2]}" in
        send) words_='--to --from --body --body-file --media --idempotency-key --wait --wait-timeout --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
        list) words_='--limit --all --cursor --direction --from --to --status --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
        get) words_=' --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
        *) words_='--version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
      esac; fi ;;
    conversations)
      if [ "$COMP_CWORD" -eq 2 ]; then words_='list show  --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help'; else
      case "${COMP_WORDS[2]}" in
        list) words_='--limit --all --cursor --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
        show) words_='--limit --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
        *) words_='--version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
      esac; fi ;;
    numbers)
      if [ "$COMP_CWORD" -eq 2 ]; then words_='search buy list get update release assign verify-tollfree  --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help'; else
      case "${COMP_WORDS[2]}" in
        search) words_='--area-code --locality --type --contains --capability --limit --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
        buy) words_=' --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
        list) words_='--limit --all --cursor --status --type --campaign --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
        get) words_=' --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
        update) words_='--label --clear-label --caller-id-name --clear-caller-id-name --emergency-street --emergency-street2 --emergency-city --emergency-state --emergency-zip --emergency --no-emergency --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
        release) words_=' --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
        assign) words_='--campaign --detach --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
        verify-tollfree) words_='--business-name --website --use-case --use-case-summary --sample-message --opt-in-workflow --monthly-volume --from-file --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
        *) words_='--version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
      esac; fi ;;
    webhooks)
      if [ "$COMP_CWORD" -eq 2 ]; then words_='create list get update delete test rotate-secret deliveries retry tail listen  --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help'; else
      case "${COMP_WORDS[2]}" in
        create) words_='--url --events --description --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
        list) words_=' --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
        get) words_=' --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
        update) words_='--url --events --description --enable --disable --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
        delete) words_=' --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
        test) words_=' --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
        rotate-secret) words_=' --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
        deliveries) words_='--limit --all --cursor --status --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
        retry) words_=' --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
        tail) words_='--last --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
        listen) words_='--forward-to --events --headers --secret --print-secret --since --cursor-file --concurrency --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
        *) words_='--version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
      esac; fi ;;
    events)
      if [ "$COMP_CWORD" -eq 2 ]; then words_='list follow  --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help'; else
      case "${COMP_WORDS[2]}" in
        list) words_='--types --after --before --order --limit --all --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
        follow) words_='--types --since --cursor-file --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
        *) words_='--version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
      esac; fi ;;
    keys)
      if [ "$COMP_CWORD" -eq 2 ]; then words_='create list revoke  --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help'; else
      case "${COMP_WORDS[2]}" in
        create) words_='--name --mode --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
        list) words_='--limit --all --cursor --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
        revoke) words_=' --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
        *) words_='--version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
      esac; fi ;;
    subaccounts)
      if [ "$COMP_CWORD" -eq 2 ]; then words_='create list get update suspend resume  --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help'; else
      case "${COMP_WORDS[2]}" in
        create) words_='--name --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
        list) words_='--limit --all --cursor --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
        get) words_=' --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
        update) words_='--name --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
        suspend) words_=' --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
        resume) words_=' --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
        *) words_='--version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
      esac; fi ;;
    agency)
      if [ "$COMP_CWORD" -eq 2 ]; then words_='summary  --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help'; else
      case "${COMP_WORDS[2]}" in
        summary) words_=' --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
        *) words_='--version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
      esac; fi ;;
    trigger)
      if [ "$COMP_CWORD" -eq 2 ]; then words_='message.received message.status webhook_endpoint.disabled --list --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help'; else
      case "${COMP_WORDS[2]}" in
        message.received) words_='--to --from --body --media --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
        message.status) words_='--status --from --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
        webhook_endpoint.disabled) words_='--endpoint --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
        *) words_='--version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
      esac; fi ;;
    clock)
      if [ "$COMP_CWORD" -eq 2 ]; then words_='show advance  --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help'; else
      case "${COMP_WORDS[2]}" in
        show) words_=' --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
        advance) words_=' --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
        *) words_='--version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
      esac; fi ;;
    api)
      if [ "$COMP_CWORD" -eq 2 ]; then words_=' --field --input --paginate --idempotency-key --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help'; else
      case "${COMP_WORDS[2]}" in
        *) ;;
        *) words_='--version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
      esac; fi ;;
    completion)
      if [ "$COMP_CWORD" -eq 2 ]; then words_='  --version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help'; else
      case "${COMP_WORDS[2]}" in
        *) ;;
        *) words_='--version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
      esac; fi ;;
    *) words_='--version --profile --base-url --subaccount --output --json --no-color --no-input --yes --verbose --dry-run --config-dir --help' ;;
    esac
  fi
  COMPREPLY=( $(compgen -W "$words_" -- "$cur") )
}
complete -F _svc svc
