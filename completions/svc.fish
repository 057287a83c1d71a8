# fish completion for svc (svc completion fish)
# "$(…)" keeps an empty current word as one argument (a bare (…) would drop it).
complete -c svc -f -a '(svc __complete fish (commandline -opc)[2..-1] "$(commandline -ct)")'
