#!/bin/sh
# The fatbinary reader on the real CUDA libraries of an installed
# toolkit (cuBLAS, cuDNN, NCCL … up to half a gigabyte, thousands of
# fatbinaries): every one reads without an error, by its headers alone,
# in milliseconds; and where cuobjdump is installed, the architectures
# are the ones it lists.
#
# CUDA_HOME names the toolkit (default /usr/local/cuda).
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fx_elf.sh"

FATBIN=${FATBIN:-$(dirname "$CUDAWIZ")/tests/tools/fatbin-list}
[ -x "$FATBIN" ] || skip_all "$FATBIN is not built"
cuda=${CUDA_HOME:-/usr/local/cuda}
libdir=$cuda/lib64
[ -d "$libdir" ] || skip_all "no CUDA toolkit libraries in $libdir (set CUDA_HOME)"
cd "$ELF_TMP" || exit 99

now_ms() {
	n=$(date +%s%N)
	case $n in
	*[!0-9]*) echo 0 ;;
	*) echo $((n / 1000000)) ;;
	esac
}

# Every real file (not a symlink) named lib*.so*: one listing each.
: > libs.txt
for f in "$libdir"/lib*.so*; do
	[ -f "$f" ] && [ ! -L "$f" ] && printf '%s\n' "$f" >> libs.txt
done
nlibs=$(wc -l < libs.txt | tr -d ' ')
[ "$nlibs" -gt 0 ] || skip_all "no shared libraries in $libdir"

t0=$(now_ms)
# shellcheck disable=SC2046
"$FATBIN" --io $(cat libs.txt) > all.out 2>&1
t1=$(now_ms)
is "$(grep '^error ' all.out)" "" "all $nlibs libraries in $libdir read without an error"
withfb=$(grep -c '^has_fatbin yes' all.out)
entries=$(awk '/^entries / { s += $2 } END { print s + 0 }' all.out)
bytes=$(awk '/^read_bytes / { s += $2 } END { print s + 0 }' all.out)
total=0
while IFS= read -r f; do
	total=$((total + $(wc -c < "$f")))
done < libs.txt
diag "$nlibs libraries ($total bytes), $withfb with fatbinaries, $entries entries: $((t1 - t0)) ms, $bytes bytes read"
ok "some of them carry fatbinaries ($withfb)" test "$withfb" -gt 0
ok "their headers are all that is read ($bytes of $total bytes)" \
    test "$bytes" -lt $((total / 100 + 1))

# Every name it gives is a well-formed architecture.
names=$(sed -n 's/^\(sass\|ptx\) //p' all.out | tr ' ' '\n' | grep -v '^-$' | sort -u)
bad=$("$FATBIN" --cc $names | awk '$2 == "-" { print $1 }')
is "$bad" "" "every listed name has a compute capability ($(printf '%s\n' "$names" | wc -l | tr -d ' ') distinct names)"

# The largest library: listed in milliseconds.
big=$(for f in $(cat libs.txt); do
	printf '%s %s\n' "$(wc -c < "$f" | tr -d ' ')" "$f"
done | sort -n | tail -n 1 | cut -d' ' -f2)
"$FATBIN" "$big" > /dev/null 2>&1	# warm the page cache
t0=$(now_ms)
"$FATBIN" "$big" > big.out 2>&1
t1=$(now_ms)
diag "$(basename "$big") ($(wc -c < "$big" | tr -d ' ') bytes): $(sed -n 's/^entries //p' big.out) entries in $((t1 - t0)) ms: $(sed -n 's/^sass //p' big.out) / $(sed -n 's/^ptx //p' big.out)"
ok "the largest, $(basename "$big"), in under 1000 ms ($((t1 - t0)) ms)" \
    test $((t1 - t0)) -lt 1000

# CUDA 13 builds nothing older than sm_75: its own cuBLAS must say so.
cublas=$(grep '/libcublas\.so\.13' libs.txt | head -n 1)
if [ -n "$cublas" ]; then
	sass=$("$FATBIN" "$cublas" | sed -n 's/^sass //p')
	like "$sass" '(^| )sm_75( |$)' "$(basename "$cublas") carries sm_75 SASS ($sass)"
	old=$(printf '%s\n' $sass | sed -n 's/^sm_\([0-9]*\).*/\1/p' |
	    awk '$1 < 75')
	is "$old" "" "$(basename "$cublas") carries nothing older than sm_75"
else
	skip "cuBLAS 13 architectures" "no libcublas.so.13 in $libdir"
	skip "cuBLAS 13 architectures" "no libcublas.so.13 in $libdir"
fi

CUOBJDUMP=${CUOBJDUMP:-$(command -v cuobjdump 2>/dev/null ||
    echo "$cuda/bin/cuobjdump")}
lib=$(grep '/libcurand\.so' libs.txt | head -n 1)
if [ -x "$CUOBJDUMP" ] && [ -n "$lib" ]; then
	want=$(LC_ALL=C "$CUOBJDUMP" --list-elf --list-ptx "$lib" 2>/dev/null |
	    sed -n 's/^ELF file.*\(sm_[0-9][0-9]*[af]\{0,1\}\)\.cubin$/\1/p;
	    s/^PTX file.*sm_\([0-9][0-9]*[af]\{0,1\}\)\.ptx$/compute_\1/p' |
	    sort -u | tr '\n' ' ')
	got=$("$FATBIN" "$lib" | sed -n 's/^\(sass\|ptx\) //p' | tr ' ' '\n' |
	    grep -v '^-$' | sort -u | tr '\n' ' ')
	is "$got" "$want" "$(basename "$lib"): the architectures cuobjdump lists"
else
	skip "a toolkit library against cuobjdump" "no cuobjdump ($CUOBJDUMP) or no libcurand"
fi

done_testing
