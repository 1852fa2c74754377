#!/bin/sh
# The fish activation script in fish: each starting state, twice the same
# as once, the way back exact (the exported environment byte for byte),
# no helper left, hostile names set exactly with nothing executed.
. "$TESTS_SRCDIR/cli/envscript-common.sh"

command -v fish > /dev/null 2>&1 || skip_all "fish is not installed"
cat > "$W/prog.fish" <<'PROG'
set -l s $argv[1]
set -l o $argv[2]
set -l dump $argv[3]
set -l deact (string match -r -- '^# Undo: (.*)' < $s)[2]
/bin/sh $dump > $o.0
source $s
/bin/sh $dump > $o.1
set -n | string match -- '_cwz_*' >> $o.left
source $s
/bin/sh $dump > $o.2
eval $deact
/bin/sh $dump > $o.3
set -n | string match -- '*cudawiz*' >> $o.left
functions -q $deact; and echo "$deact is still defined" >> $o.left
PROG
fishrun() { fish --no-config "$W/prog.fish" "$1" "$2" "$W/dump.sh"; }

A=$W/a.fish
"$R" --format fish --name cuda-12.4 --prepend-path "$C/bin" --prepend-ld "$C/lib64" \
    --remove-ld "$O/lib64" --drop-stubs --drop-missing --set CUDA_HOME="$C" \
    --unset CUDA_PATH > "$A" || exit 99
like "$(head -n 1 "$A")" '^# cudawiz-format: fish$' "the first line names the format"
B=$W/b.fish
"$R" --format fish --name rm --remove-ld "$O/lib64/" --drop-stubs > "$B" || exit 99
HS=$W/h.fish
"$R" --format fish --name hostile --note "x${NL}touch pwned" --prepend-ld "$H1" \
    --prepend-ld "$H2" --prepend-ld "$H3" --prepend-ld "$H4" --prepend-ld "$H5" \
    --prepend-ld "$H6" --prepend-ld "$H7" --prepend-ld "$H8" --prepend-ld "$H9" \
    --prepend-ld "$H10" --drop-missing --set CUDA_HOME="$H6" --set CUDA_PATH="$H4" \
    > "$HS" || exit 99
HALL="$H1:$H2:$H3:$H4:$H5:$H6:$H7:$H8:$H9:$H10"
HR=$W/hr.fish
"$R" --format fish --name hostile-rm --remove-ld "$H5" --remove-ld "$H6/" \
    --remove-ld "$H4" --prepend-path "$H8" > "$HR" || exit 99

P=/usr/bin:/bin
shell_case "fish: all unset" "$A" "$P" - - - "$C/bin:$P" "$C/lib64" "$C" - fishrun
# fish itself turns PATH's empty entries into "." when it starts (before
# the script runs); its other lists keep them.
shell_case "fish: all empty" "$A" "/usr/bin:.:/bin:." "" "" "" "$C/bin:/usr/bin:.:/bin:." \
    "$C/lib64" "$C" - fishrun
shell_case "fish: ':', prepended dir in the middle" "$A" "/usr/bin:$C/bin/:/bin" ":" /old x \
    "$C/bin:$P" "$C/lib64" "$C" - fishrun
shell_case "fish: stubs, missing, removed, empty entries" "$A" "$P" \
    "$E1:$C/lib64/stubs:$M:$O/lib64/:$C/lib64::$E2:$O/lib64" - - \
    "$C/bin:$P" "$C/lib64:$E1:$E2" "$C" - fishrun
shell_case "fish: nothing left: unset" "$B" "$P" "$O/lib64:$C/lib64/stubs:" - - "$P" - - - fishrun
shell_case "fish: empty and nothing left: unset" "$B" "$P" "" - - "$P" - - - fishrun
shell_case "fish: hostile names" "$HS" "$P" "$E1:$H8:$M" - - "$P" "$HALL:$E1" "$H6" "$H4" fishrun
shell_case "fish: hostile names removed" "$HR" "$P" "$H5:$E1:$H6/:$H2:$H4" - - \
    "$H8:$P" "$E1:$H2" - - fishrun
done_testing
