# fish completion for cudawiz(1). Installed as
# $(datadir)/fish/vendor_completions.d/cudawiz.fish. Options are accepted
# before or after the command word, as cudawiz itself accepts them.
# tests/cli/docs-completion.sh fails when an option of `cudawiz --help` is
# missing here.

# No command word yet, or the command word is one of the arguments.
function __cudawiz_no_cmd
    __fish_seen_subcommand_from doctor why explain verify env matrix spec fleet wizard; and return 1
    return 0
end

function __cudawiz_cmd_is
    __cudawiz_no_cmd; and return 0
    __fish_seen_subcommand_from $argv
end

complete -c cudawiz -f

# Commands.
complete -c cudawiz -n __cudawiz_no_cmd -a doctor -d 'every fact and every finding, with fixes'
complete -c cudawiz -n __cudawiz_no_cmd -a why -d 'how the dynamic loader resolves a library'
complete -c cudawiz -n __cudawiz_no_cmd -a explain -d 'paste an error message; get the finding and the fix'
complete -c cudawiz -n __cudawiz_no_cmd -a verify -d 'run live GPU checks'
complete -c cudawiz -n __cudawiz_no_cmd -a env -d 'write an activation script that fixes the environment'
complete -c cudawiz -n __cudawiz_no_cmd -a matrix -d 'the compatibility matrix in use'
complete -c cudawiz -n '__fish_seen_subcommand_from matrix; and not __fish_seen_subcommand_from show path update' \
    -a 'show\t"the matrix in use" path\t"where the refreshed copy is cached" update\t"refresh it over HTTPS"'
complete -c cudawiz -n __cudawiz_no_cmd -a spec -d 'what matters about this machine, as JSON'
complete -c cudawiz -n __cudawiz_no_cmd -a fleet -d "many hosts' doctor reports"
complete -c cudawiz -n __cudawiz_no_cmd -a wizard -d 'the wizard on this terminal'
complete -c cudawiz -n '__fish_seen_subcommand_from spec; and not __fish_seen_subcommand_from export' \
    -a 'export\t"this machine'"'"'s spec as JSON"'
complete -c cudawiz -n '__fish_seen_subcommand_from fleet' -F
complete -c cudawiz -n '__fish_seen_subcommand_from explain' -a - -d 'read the message from standard input'

# Common options.
complete -c cudawiz -l json -d 'print one JSON document instead of text'
complete -c cudawiz -l format -x -a 'text json html prometheus' -d 'text, json, html (one self-contained page) or prometheus'
complete -c cudawiz -l root -x -a '(__fish_complete_directories)' -d 'read DIR as if it were /'
complete -c cudawiz -l offline -d 'never use the network'
complete -c cudawiz -l matrix -r -F -d 'use this compatibility matrix'
complete -c cudawiz -l no-color -d 'no colour'
complete -c cudawiz -l color -d 'force colour'
complete -c cudawiz -l ascii -d 'draw the wizard with ASCII characters only'
complete -c cudawiz -l no-mouse -d 'leave the mouse to the terminal'
complete -c cudawiz -s h -l help -d 'show the help'
complete -c cudawiz -s V -l version -d 'show the version'

# why
complete -c cudawiz -n '__cudawiz_cmd_is why' -l from -r -F -d 'resolve as a dlopen() from this file'

# verify and doctor
complete -c cudawiz -n '__cudawiz_cmd_is verify doctor env matrix' -l timeout -x -d 'seconds each check may take'
complete -c cudawiz -n '__cudawiz_cmd_is verify' -l quick -d 'small sizes, no bandwidth or FMA runs'
complete -c cudawiz -n '__cudawiz_cmd_is verify' -l env -x -a '(__fish_complete_directories)' -d "also load this environment's libraries"
complete -c cudawiz -n '__cudawiz_cmd_is doctor' -l no-verify -d 'no live checks, even with a driver'

# env
complete -c cudawiz -n '__cudawiz_cmd_is env' -l shell -x -d 'the script format' -a '
    sh\t"POSIX sh" bash\t"POSIX sh" zsh\t"POSIX sh" dash\t"POSIX sh" ksh\t"POSIX sh"
    fish\tfish csh\t"csh and tcsh" tcsh\t"csh and tcsh" powershell\tPowerShell
    conda\t"activate.d and deactivate.d" lmod\t"Lua modulefile"
    tcl\t"Environment Modules modulefile" direnv\t".envrc"
    cmd\t"cmd.exe batch file"'
complete -c cudawiz -n '__cudawiz_cmd_is env doctor spec fleet' -s o -l output -r -F -d 'write the script or report to FILE'
complete -c cudawiz -n '__cudawiz_cmd_is env' -l force -d 'write even where FILE is a symbolic link'
complete -c cudawiz -n '__cudawiz_cmd_is env' -l install-rc -d 'add a line sourcing FILE to the rc file'
complete -c cudawiz -n '__cudawiz_cmd_is env' -l toolkit -x -a '(__fish_complete_directories)' -d 'use this CUDA toolkit (version or directory)'
complete -c cudawiz -n '__cudawiz_cmd_is env' -l cudnn -x -a '(__fish_complete_directories)' -d 'use the cuDNN in DIR'
complete -c cudawiz -n '__cudawiz_cmd_is env' -l python-env -x -a '(__fish_complete_directories)' -d "make that environment's frameworks load"
complete -c cudawiz -n '__cudawiz_cmd_is env' -l add-lib -x -a '(__fish_complete_directories)' -d 'put DIR on LD_LIBRARY_PATH'
complete -c cudawiz -n '__cudawiz_cmd_is env' -l keep-other-cuda -d "leave other CUDA versions' directories"
complete -c cudawiz -n '__cudawiz_cmd_is env' -l scope -x -a 'session user' -d 'what the script changes (user: the Windows user environment too)'
complete -c cudawiz -n '__cudawiz_cmd_is env' -l check -r -F -d 'source FILE and show what it changes'

# matrix update
complete -c cudawiz -n '__cudawiz_cmd_is matrix' -l url -x -d 'fetch URL instead of the default sources'
complete -c cudawiz -n '__cudawiz_cmd_is matrix' -l connect-timeout -x -d 'seconds to connect'

# fleets: doctor --baseline, fleet
complete -c cudawiz -n '__cudawiz_cmd_is doctor fleet' -l baseline -r -F -d "compare with this reference machine's spec"
complete -c cudawiz -n '__cudawiz_cmd_is fleet' -l max-age -x -d 'a report older than H hours is stale'
