#!/bin/sh
# Names cudawiz did not choose (a directory, a variable's value, a file
# named on the command line) can hold escape sequences. The text a person
# reads shows them as escapes; JSON and scripts keep the exact bytes.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"

esc=$(printf '\033')
bel=$(printf '\007')
# A window title, a colour, and a clear-screen, in one directory name.
evil=$(printf '/opt/evil\033]0;PWNED\007\033[31mred\033[2J')

fx_new
fx_toolkit 12.4 2>/dev/null || fx_dir /usr/local/cuda-12.4/lib64
fx_dir "$evil"

# raw FILE: true when FILE holds an ESC or BEL byte.
raw() { grep -q "[$esc$bel]" "$1"; }

fx_cmd_env doctor "LD_LIBRARY_PATH=$evil" -- --no-color
ok "doctor's text report ran (exit $FX_RC)" test "$FX_RC" -le 1
ok "... sends no escape or bell byte to the terminal" sh -c '! grep -q "[$1$2]" "$3"' _ "$esc" "$bel" "$FX_OUT"
like "$(cat "$FX_OUT")" '/opt/evil\\x1b\]0' "... shows the name with its escapes written out"
like "$(cat "$FX_OUT")" 'PWNED\\x07\\x1b\[31mred\\x1b\[2J' "... all of them"

fx_cmd_env doctor "LD_LIBRARY_PATH=$evil" -- --color
like "$(cat "$FX_OUT")" "$esc\\[" "with --color the report is coloured"
ok "... yet the name's title sequence is written out, not sent" sh -c '! grep -q "$1]0" "$2"' _ "$esc" "$FX_OUT"
# A colour change passes when the report is coloured anyway (it can only
# colour text); the clear-screen after it does not.
like "$(cat "$FX_OUT")" 'red\\x1b\[2J' "... and its clear-screen too"

fx_cmd_env "doctor --json" "LD_LIBRARY_PATH=$evil"
is "$(fx_jq '.facts.env.LD_LIBRARY_PATH.value')" "$evil" \
    "JSON keeps the value byte for byte"

fx_cmd_env "env --shell sh" "LD_LIBRARY_PATH=$evil" -- --add-lib "$evil"
ok "env's script is written (exit $FX_RC)" test "$FX_RC" = 0
ok "... with the name's bytes exactly (a script must name the real directory)" \
    grep -qF "$evil" "$FX_OUT"
lib=$(SH_OUT=$FX_OUT sh -c '. "$SH_OUT"; printf %s "$LD_LIBRARY_PATH"' 2>/dev/null)
is "${lib%%:*}" "$evil" "... and sourcing it puts that directory first"

fx_cmd_env doctor -- --matrix "$(printf '/no/such\033[2J.json')"
ok "an error naming a file (exit $FX_RC)" test "$FX_RC" -gt 1
ok "... sends no escape to the terminal" sh -c '! grep -q "$1" "$2"' _ "$esc" "$FX.stderr"
like "$(cat "$FX.stderr")" 'no/such\\x1b\[2J\.json' "... and shows the name written out"

name=$(printf 'libx\033]0;T\007.so.1')
fx_cmd_env "why" -- "$name"
ok "why on a name with escapes (exit $FX_RC)" test "$FX_RC" -le 2
ok "... sends none of them" sh -c '! grep -q "[$1$2]" "$3" "$4"' _ "$esc" "$bel" "$FX_OUT" "$FX.stderr"

done_testing
