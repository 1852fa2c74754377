#!/bin/sh
# gen-closure.sh DIR: make the tree bench/why.sh and bench/run.sh time
# `cudawiz why` on: a library with a 50-entry DT_NEEDED closure.
#
# DIR/top.so needs libcwb00 … libcwb49; each libcwbNN lives in its own
# directory DIR/dNN and needs the next two, reached through DT_RUNPATH
# with $ORIGIN; DIR/empty0 … DIR/empty19 hold none of them. The caller
# puts those 20 on LD_LIBRARY_PATH (DIR/llp holds that value) so every
# search walks a realistic path before the RUNPATH hit.
set -eu
tree=$1
cc=${CC:-cc}

mkdir -p "$tree"
echo 'int cudawiz_bench(void) { return 0; }' > "$tree/e.c"
$cc -c -fPIC -o "$tree/e.o" "$tree/e.c"
# Built from the end so each library's needs exist when it is linked.
i=49
while [ "$i" -ge 0 ]; do
	n=$(printf %02d "$i")
	mkdir -p "$tree/d$n"
	deps=
	for j in $((i + 1)) $((i + 2)); do
		[ "$j" -le 49 ] || continue
		m=$(printf %02d "$j")
		deps="$deps $tree/d$m/libcwb$m.so.1"
	done
	# shellcheck disable=SC2086
	$cc -shared -o "$tree/d$n/libcwb$n.so.1" "$tree/e.o" -Wl,-soname,libcwb$n.so.1 \
	    -Wl,--no-as-needed -Wl,--enable-new-dtags -Wl,-rpath,'$ORIGIN/../d'"$(printf %02d $((i + 1)))"':$ORIGIN/../d'"$(printf %02d $((i + 2)))" $deps
	i=$((i - 1))
done
all=
rp=
i=0
while [ "$i" -le 49 ]; do
	n=$(printf %02d "$i")
	all="$all $tree/d$n/libcwb$n.so.1"
	rp="$rp:\$ORIGIN/d$n"
	i=$((i + 1))
done
# shellcheck disable=SC2086
$cc -shared -o "$tree/top.so" "$tree/e.o" -Wl,--no-as-needed -Wl,--enable-new-dtags -Wl,-rpath,"${rp#:}" $all
llp=
i=0
while [ "$i" -lt 20 ]; do
	mkdir -p "$tree/empty$i"
	llp="$llp:$tree/empty$i"
	i=$((i + 1))
done
echo "${llp#:}" > "$tree/llp"
