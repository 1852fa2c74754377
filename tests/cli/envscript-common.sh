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
		cd "$W/cwd" && exec "$@"
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
