#!/bin/sh
# The helper's embedded PTX (cudawiz-verify --list-ptx / --dump-ptx):
# every variant says in its header the ISA and target its name claims,
# and NVIDIA's own assembler, where this machine has one, accepts it for
# that target (or, when this ptxas no longer builds for so old a GPU, for
# the oldest it does: PTX for sm_XY compiles for every sm_MN >= XY, which
# is what the driver's JIT does on a newer GPU) and for the newest.
. "$TESTS_SRCDIR/lib/tap.sh"

[ -x "$CUDAWIZ_HELPER" ] || skip_all "no helper at $CUDAWIZ_HELPER"
W=$(mktemp -d "$FX_TMP/helper-ptx.XXXXXX") || exit 99
trap 'rm -rf "$W"' EXIT

CUDA=${CUDA_HOME:-/usr/local/cuda}
PTXAS=
for p in "$CUDA/bin/ptxas" "$(command -v ptxas 2>/dev/null)"; do
	if [ -n "$p" ] && [ -x "$p" ]; then PTXAS=$p; break; fi
done

"$CUDAWIZ_HELPER" --list-ptx > "$W/list"
is "$?" 0 "--list-ptx exits 0"
ok "there are several variants" [ "$(wc -l < "$W/list")" -ge 2 ]
"$CUDAWIZ_HELPER" --dump-ptx no_such_variant > /dev/null 2>&1
is "$?" 2 "--dump-ptx of an unknown variant is a usage error"

# The sm_ numbers this ptxas builds for, in order.
archs=
if [ -n "$PTXAS" ]; then
	archs=$("$PTXAS" --help 2>/dev/null | grep -o "'sm_[0-9]*'" | tr -d "'" |
	    sed 's/^sm_//' | sort -n -u | tr '\n' ' ')
fi

while read -r name target; do
	"$CUDAWIZ_HELPER" --dump-ptx "$name" > "$W/$name.ptx"
	is "$?" 0 "$name: --dump-ptx exits 0"
	# ptx70_sm50: .version 7.0, .target sm_50
	isa=$(echo "$name" | sed -n 's/^ptx\([0-9]\)\([0-9]\)_sm[0-9]*$/\1.\2/p')
	sm=$(echo "$name" | sed -n 's/^ptx[0-9]*_sm\([0-9]*\)$/\1/p')
	is "$target" "sm_$sm" "$name: listed with the target its name says"
	is "$(grep -c "^\.version $isa\$" "$W/$name.ptx")" 1 "$name: .version $isa"
	is "$(grep -c "^\.target sm_$sm\$" "$W/$name.ptx")" 1 "$name: .target sm_$sm"
	for k in cw_saxpy cw_copy cw_fma; do
		like "$(cat "$W/$name.ptx")" "\.visible \.entry $k\(" "$name: has $k"
	done
	if [ -z "$PTXAS" ]; then
		skip "$name: ptxas assembles it" "no ptxas ($CUDA/bin/ptxas)"
		continue
	fi
	if [ -z "$archs" ]; then
		skip "$name: ptxas assembles it" "this ptxas lists no sm_ targets"
		continue
	fi
	use=
	for a in $archs; do
		if [ "$a" -ge "$sm" ]; then use=$a; break; fi
	done
	newest=$(echo $archs | awk '{ print $NF }')
	if [ -z "$use" ]; then
		skip "$name: ptxas assembles it" "this ptxas builds for nothing >= sm_$sm"
		continue
	fi
	"$PTXAS" -arch="sm_$use" -o "$W/$name.cubin" "$W/$name.ptx" 2> "$W/err"
	rc=$?
	is "$rc" 0 "$name: ptxas -arch=sm_$use accepts it$([ "$use" != "$sm" ] && echo " (sm_$sm is older than this ptxas builds for)")"
	[ "$rc" = 0 ] || sed 's/^/#   /' "$W/err"
	"$PTXAS" -arch="sm_$newest" -o "$W/$name.cubin" "$W/$name.ptx" 2> "$W/err"
	rc=$?
	is "$rc" 0 "$name: ptxas -arch=sm_$newest (the newest it knows) accepts it"
	[ "$rc" = 0 ] || sed 's/^/#   /' "$W/err"
done < "$W/list"
done_testing
