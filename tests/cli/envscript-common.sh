# Shared by the tests/cli/envscript-*.sh tests (sourced, not a test
# itself): a work directory, directories with hostile names, and running
# a shell from a chosen starting environment.
. "$TESTS_SRCDIR/lib/tap.sh"

R=${ENVSCRIPT_RENDER:?}
[ -x "$R" ] || skip_all "no $R (build tests/tools/envscript-render)"
W=$(mktemp -d "${FX_TMP:-/tmp}/envscript.XXXXXX") || exit 99
trap 'chmod -R u+rwx "$W" 2>/dev/null; rm -rf "$W"' EXIT
# Real directories: a toolkit with its stubs, another version to take out,
# two plain directories, and one that does not exist.
D=$W/d
C=$D/cuda-12.4
O=$D/cuda-11.8
E1=$D/e1
E2=$D/e2
M=$D/missing
mkdir -p "$C/lib64/stubs" "$C/bin" "$O/lib64" "$E1" "$E2" "$W/cwd" || exit 99
# Names a careless script would execute or break on; created as real
# directories.
NL='
'
H1="$D/sp ace"
H2="$D/q'uote"
H3="$D/d\"q"
H4="$D/\$(touch pwned)"
H5="$D/\`touch pwned\`"
H6="$D/new${NL}line"
H7="$D/back\\slash"
H8="$D/tööl ∂"
H9="$D/\$HOME;*?[x]"
H10="$D/-n ~ &|<>!"
for h in "$H1" "$H2" "$H3" "$H4" "$H5" "$H6" "$H7" "$H8" "$H9" "$H10"; do
	mkdir -p "$h" || exit 99
done

# start PATH LLP CUDA_HOME CUDA_PATH COMMAND...: runs COMMAND in $W/cwd
# with those values ("-" for unset).
start() {
	(
		if [ "$1" = - ]; then unset PATH; else PATH=$1; export PATH; fi
		if [ "$2" = - ]; then unset LD_LIBRARY_PATH; else LD_LIBRARY_PATH=$2; export LD_LIBRARY_PATH; fi
		if [ "$3" = - ]; then unset CUDA_HOME; else CUDA_HOME=$3; export CUDA_HOME; fi
		if [ "$4" = - ]; then unset CUDA_PATH; else CUDA_PATH=$4; export CUDA_PATH; fi
		shift 4
		cd "$W/cwd" && "$@"
	)
}

# The four variables as one text: NAME=[value] or NAME unset.
dump_expect() {	# PATH LLP CUDA_HOME CUDA_PATH ("-": unset)
	for v in PATH LD_LIBRARY_PATH CUDA_HOME CUDA_PATH; do
		if [ "$1" = - ]; then printf '%s unset\n' "$v"; else printf '%s=[%s]\n' "$v" "$1"; fi
		shift
	done
}

no_pwned() {
	[ -z "$(find "$W" -name pwned)" ] && [ ! -e pwned ]
}

# diff_is GOTFILE WANTFILE DESCRIPTION
diff_is() {
	if cmp -s "$1" "$2"; then
		tap_result 0 "$3"
	else
		tap_result 1 "$3"
		diff "$2" "$1" | head -n 30 | sed 's/^/#   /'
	fi
}

# The four variables as a program sees them in its environment: the
# shells under test run this with /bin/sh after each step.
cat > "$W/dump.sh" <<'DUMP'
for v in PATH LD_LIBRARY_PATH CUDA_HOME CUDA_PATH; do
	eval "s=\${$v+set} val=\${$v-}"
	if [ "$s" = set ]; then printf '%s=[%s]\n' "$v" "$val"; else printf '%s unset\n' "$v"; fi
done
DUMP

# shell_case LABEL SCRIPT START(4) WANT(4) RUNNER...: RUNNER SCRIPT OUT
# must write OUT.0 (the start), OUT.1 (after sourcing), OUT.2 (after
# sourcing again), OUT.3 (after the way back) with dump.sh, and OUT.left
# (whatever helper or saved state it finds left; empty when clean).
nc=0
shell_case() {
	label=$1 script=$2
	dump_expect "$3" "$4" "$5" "$6" > "$W/want0"
	dump_expect "$7" "$8" "$9" "${10}" > "$W/want1"
	nc=$((nc + 1))
	o=$W/case.$nc
	s3=$3 s4=$4 s5=$5 s6=$6
	shift 10
	: > "$o.left"
	start "$s3" "$s4" "$s5" "$s6" "$@" "$script" "$o" > "$o.err" 2>&1
	if [ ! -e "$o.3" ]; then
		tap_result 1 "$label: ran to the end"
		sed 's/^/#   /' "$o.err" | head -n 20
	else
		diff_is "$o.0" "$W/want0" "$label: starting state"
		diff_is "$o.1" "$W/want1" "$label: after sourcing"
		diff_is "$o.2" "$o.1" "$label: sourcing twice is sourcing once"
		diff_is "$o.3" "$o.0" "$label: the way back restores the start"
		is "$(cat "$o.left" "$o.err")" "" "$label: nothing left behind, no message"
	fi
	ok "$label: nothing executed" no_pwned
}
