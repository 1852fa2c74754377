#!/bin/sh
# The module files, loaded by their real module systems: the Lmod Lua
# modulefile by Lmod, the Tcl modulefile by Environment Modules (its
# modulecmd.tcl; ENVSCRIPT_MODULECMD names one that is not installed in
# the usual place). Each starting state, loading twice the same as once,
# `module unload` restoring the start, hostile names set exactly with
# nothing executed. Lmod cannot tell empty from unset (an empty variable
# comes back unset), so the empty starting state is checked for Tcl only.
. "$TESTS_SRCDIR/cli/envscript-common.sh"

LMOD_INIT=
for f in /usr/share/lmod/lmod/init/bash /usr/share/lmod/*/init/bash \
    /usr/lmod/lmod/init/bash /opt/lmod/lmod/init/bash; do
	[ -f "$f" ] && { LMOD_INIT=$f; break; }
done
MODULECMD=${ENVSCRIPT_MODULECMD:-}
if [ -z "$MODULECMD" ]; then
	# The last: where ./bootstrap check unpacks it beside Lmod.
	for f in /usr/lib/*/modulecmd.tcl /usr/share/modules/libexec/modulecmd.tcl \
	    /usr/libexec/modulecmd.tcl \
	    "$TESTS_SRCDIR"/../.cache/environment-modules/usr/lib/*/modulecmd.tcl; do
		[ -f "$f" ] && { MODULECMD=$f; break; }
	done
fi
command -v bash > /dev/null 2>&1 || skip_all "no bash to run the module commands in"
[ -n "$LMOD_INIT$MODULECMD" ] || skip_all "neither Lmod nor Environment Modules is installed"

# $1 the modulefile's directory and name as DIR/NAME, $2 where the dumps go.
cat > "$W/prog.bash" <<'PROG'
dir=${1%/*} name=${1##*/}
name=${name%.lua}
if [ "$KIND" = lmod ]; then
	. "$LMOD_INIT" > /dev/null 2>&1
else
	module() { eval "$(tclsh "$MODULECMD" bash "$@")"; }
fi
module use "$dir"
/bin/sh "$DUMP" > "$2.0"
module load "$name"
/bin/sh "$DUMP" > "$2.1"
module load "$name"
/bin/sh "$DUMP" > "$2.2"
module unload "$name"
/bin/sh "$DUMP" > "$2.3"
/usr/bin/env | grep -a '^__CUDAWIZ' >> "$2.left"
PROG
modrun() {
	KIND=$KIND LMOD_INIT=$LMOD_INIT MODULECMD=$MODULECMD DUMP=$W/dump.sh \
	    bash "$W/prog.bash" "$@"
}

P=/usr/bin:/bin
mods() {	# KIND EXT
	KIND=$1
	mkdir -p "$W/$1"
	A=$W/$1/cuda-12.4$2
	"$R" --format "$1" --name cuda-12.4 --prepend-path "$C/bin" --prepend-ld "$C/lib64" \
	    --remove-ld "$O/lib64" --drop-stubs --drop-missing --set CUDA_HOME="$C" \
	    --unset CUDA_PATH > "$A" || exit 99
	B=$W/$1/rm$2
	"$R" --format "$1" --name rm --remove-ld "$O/lib64/" --drop-stubs > "$B" || exit 99
	HS=$W/$1/hostile$2
	# (no newline: refused, below)
	"$R" --format "$1" --name hostile --note "x${NL}touch pwned" --prepend-ld "$H1" \
	    --prepend-ld "$H2" --prepend-ld "$H3" --prepend-ld "$H4" --prepend-ld "$H5" \
	    --prepend-ld "$H7" --prepend-ld "$H8" --prepend-ld "$H9" \
	    --prepend-ld "$H10" --drop-missing --set CUDA_HOME="$H7" --set CUDA_PATH="$H10" \
	    > "$HS" || exit 99
	HALL="$H1:$H2:$H3:$H4:$H5:$H7:$H8:$H9:$H10"
	shell_case "$1: all unset" "$A" "$P" - - - "$C/bin:$P" "$C/lib64" "$C" - modrun
	shell_case "$1: stubs, missing, removed, empty entries" "$A" "$P" \
	    "$E1:$C/lib64/stubs:$M:$O/lib64/:$C/lib64::$E2:$O/lib64" /old x \
	    "$C/bin:$P" "$C/lib64:$E1:$E2" "$C" - modrun
	shell_case "$1: the prepended dirs in the middle" "$A" "/usr/bin:$C/bin/:/bin" \
	    "$E1:$C/lib64/:$E2" - - "$C/bin:$P" "$C/lib64:$E1:$E2" "$C" - modrun
	shell_case "$1: nothing left: unset" "$B" "$P" "$O/lib64:$C/lib64/stubs:" - - \
	    "$P" - - - modrun
	# Lmod 8.6 keeps the replaced value base64-encoded and its decoder can
	# garble non-ASCII bytes (seen with "tööl ∂"), so under Lmod the
	# starting value is ASCII; the values the module sets are not affected.
	start=$E1:$H8:$M
	[ "$1" = lmod ] && start=$E1:$H9:$M
	shell_case "$1: hostile names" "$HS" "$P" "$start" "$H4" - "$P" "$HALL:$E1" \
	    "$H7" "$H10" modrun
	for v in "--prepend-ld=$H6" "--set=CUDA_HOME=$H6"; do
		if "$R" --format "$1" "${v%%=*}" "${v#*=}" > /dev/null 2> "$W/err"; then
			tap_result 1 "$1: a newline is refused ($v)"
		else
			like "$(cat "$W/err")" "holds a line break, which the module system" \
			    "$1: a newline is refused (${v%%=*})"
		fi
	done
	if [ "$1" = tcl ]; then
		shell_case "$1: empty stays empty" "$A" "$P" "" "" "" "$C/bin:$P" "$C/lib64" "$C" - modrun
	fi
}
like "$("$R" --format lmod | head -n 1)" '^-- cudawiz-format: lmod$' "lmod: the first line names the format in Lua"
like "$("$R" --format tcl | sed -n 2p)" '^# cudawiz-format: tcl$' "tcl: the format after the #%Module cookie"
if [ -n "$LMOD_INIT" ]; then mods lmod .lua; else skip "Lmod" "Lmod is not installed"; fi
if [ -n "$MODULECMD" ] && command -v tclsh > /dev/null 2>&1; then
	mods tcl ""
else
	skip "Environment Modules" "Environment Modules (modulecmd.tcl and tclsh) is not installed"
fi
done_testing
