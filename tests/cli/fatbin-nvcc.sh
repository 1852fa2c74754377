#!/bin/sh
# The fatbinary reader against nvcc: shared libraries built here from a
# one-kernel .cu with several -gencode combinations must list exactly the
# SASS and PTX architectures nvcc was asked for, and, where cuobjdump is
# installed, exactly what `cuobjdump --list-elf --list-ptx` lists.
#
# NVCC and CUOBJDUMP name the tools; by default they are taken from PATH
# or /usr/local/cuda/bin. CUDA 13 builds sm_75 and newer only.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fx_elf.sh"

FATBIN=${FATBIN:-$(dirname "$CUDAWIZ")/tests/tools/fatbin-list}
[ -x "$FATBIN" ] || skip_all "$FATBIN is not built"
NVCC=${NVCC:-$(command -v nvcc 2>/dev/null || echo /usr/local/cuda/bin/nvcc)}
[ -x "$NVCC" ] || skip_all "no nvcc (set NVCC or put it on PATH; $NVCC is absent)"
CUOBJDUMP=${CUOBJDUMP:-$(command -v cuobjdump 2>/dev/null ||
    echo "$(dirname "$NVCC")/cuobjdump")}
cd "$ELF_TMP" || exit 99

cat > k.cu <<'EOF'
__global__ void scale(float *x) { x[threadIdx.x] *= 2.0f; }
void launch(float *x) { scale<<<1, 32>>>(x); }
EOF
# nvcc_c ARGS...: "$NVCC" ARGS, its -o output kept in a cache by nvcc's
# version, k.cu and ARGS, so that the suite's second run (the ASan gate's,
# after the plain gate's) lists the very same files without the nvcc
# builds, ~45 s of CPU on the 2-core build VM. A failed build is not kept.
nvcc_cache=${TMPDIR:-/tmp}/cudawiz-nvcc-cache.$(id -u)
nvcc_id=$("$NVCC" --version 2>&1 | cksum | tr ' ' _)
nvcc_c() {
	nc_out=
	nc_prev=
	for nc_a in "$@"; do
		[ "$nc_prev" = -o ] && nc_out=$nc_a
		nc_prev=$nc_a
	done
	nc_key=$({ echo "$nvcc_id"; cat k.cu; printf '%s\n' "$@"; } | cksum | tr ' ' _)
	if [ -n "$nc_out" ] && [ -s "$nvcc_cache/$nc_key" ]; then
		cp "$nvcc_cache/$nc_key" "$nc_out" && return 0
	fi
	"$NVCC" "$@" || return
	[ -n "$nc_out" ] && mkdir -p "$nvcc_cache" &&
	    cp "$nc_out" "$nvcc_cache/$nc_key.tmp.$$" &&
	    mv -f "$nvcc_cache/$nc_key.tmp.$$" "$nvcc_cache/$nc_key"
	return 0
}
if ! nvcc_c -Xcompiler -fPIC -shared -cudart none -o probe.so k.cu \
    -gencode arch=compute_75,code=sm_75 > nvcc.log 2>&1; then
	skip_all "$NVCC cannot build a shared library: $(head -n 2 nvcc.log | tr '\n' ' ')"
fi
[ -x "$CUOBJDUMP" ] ||
	diag "no cuobjdump ($CUOBJDUMP): checked against the -gencode requests only"

# archs FILE: "sass ... ptx ..." from fatbin-list.
archs() {
	"$FATBIN" "$1" 2>&1 | sed -n 's/^\(sass\|ptx\|error\) /\1 /p' |
	    tr '\n' ' ' | sed 's/ $//'
}

# cuobjdump_archs FILE: the same line from cuobjdump's listing, whose
# names are "NAME.N.sm_90a.cubin" and "NAME.N.sm_90.ptx".
cuobjdump_archs() {
	LC_ALL=C "$CUOBJDUMP" --list-elf --list-ptx "$1" 2>/dev/null | awk '
	function key(s) { n = s; sub(/^[a-z]+_/, "", n); v = n; sub(/^[0-9]+/, "", v)
		return sprintf("%04d%s", n + 0, v) }
	function add(kind, name) { if (!((kind, name) in seen)) {
		seen[kind, name] = 1; list[kind] = list[kind] " " key(name) "=" name } }
	/^ELF file/ && match($0, /sm_[0-9]+[af]?\.cubin/) {
		add("sass", substr($0, RSTART, RLENGTH - 6)) }
	/^PTX file/ && match($0, /sm_[0-9]+[af]?\.ptx/) {
		s = substr($0, RSTART, RLENGTH - 4); sub(/^sm_/, "compute_", s); add("ptx", s) }
	function sorted(s,   a, n, i, j, t, out) {
		n = split(s, a, " ")
		for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
			if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
		out = ""
		for (i = 1; i <= n; i++) { sub(/^[^=]*=/, "", a[i]); out = out " " a[i] }
		return out == "" ? " -" : out
	}
	END { printf "sass%s ptx%s\n", sorted(list["sass"]), sorted(list["ptx"]) }'
}

# build NAME "SASS..." "PTX..." NVCC-ARGS...: builds NAME.so and checks
# its listing against what was asked for, and against cuobjdump.
build() {
	b_name=$1
	b_want="sass $2 ptx $3"
	shift 3
	if ! nvcc_c -Xcompiler -fPIC -shared -o "$b_name.so" k.cu "$@" \
	    > "$b_name.log" 2>&1; then
		skip "$b_name: $*" "nvcc refused it: $(head -n 1 "$b_name.log")"
		if [ -x "$CUOBJDUMP" ]; then
			skip "$b_name: cuobjdump" "not built"
			skip "$b_name: cuobjdump entries" "not built"
		fi
		return 1
	fi
	is "$(archs "$b_name.so")" "$b_want" "$b_name: $*"
	if [ -x "$CUOBJDUMP" ]; then
		is "$(archs "$b_name.so")" "$(cuobjdump_archs "$b_name.so")" \
		    "$b_name: the same as cuobjdump --list-elf --list-ptx"
		is "$("$FATBIN" "$b_name.so" | sed -n 's/^entries //p')" \
		    "$(LC_ALL=C "$CUOBJDUMP" --list-elf --list-ptx "$b_name.so" \
		    2>/dev/null | grep -c '^\(ELF\|PTX\) file')" \
		    "$b_name: as many entries as cuobjdump lists"
	fi
	return 0
}

build sm75 sm_75 - -cudart none -gencode arch=compute_75,code=sm_75
build multi "sm_75 sm_80 sm_90" compute_90 -cudart none \
    -gencode arch=compute_75,code=sm_75 -gencode arch=compute_80,code=sm_80 \
    -gencode arch=compute_90,code='[sm_90,compute_90]'
build static "sm_75 sm_80" compute_80 \
    -gencode arch=compute_75,code=sm_75 \
    -gencode arch=compute_80,code='[sm_80,compute_80]'
build ptxonly - compute_80 -cudart none -gencode arch=compute_80,code=compute_80
build sm90a sm_90a compute_90a -cudart none \
    -gencode arch=compute_90a,code='[sm_90a,compute_90a]'
build blackwell "sm_100 sm_120" compute_120 -cudart none \
    -gencode arch=compute_100,code=sm_100 \
    -gencode arch=compute_120,code='[sm_120,compute_120]' &&
	like "$("$FATBIN" --entries blackwell.so)" \
	    '^entry \.nv_fatbin [0-9]+ 2 sm_120 hdr=(96|112) ' \
	    "blackwell: sm_100 and newer have longer entry headers"
build family "sm_100f sm_103a sm_120a" "compute_100f" -cudart none \
    -gencode arch=compute_100f,code='[sm_100f,compute_100f]' \
    -gencode arch=compute_103a,code=sm_103a \
    -gencode arch=compute_120a,code=sm_120a

if build compressed sm_75 compute_75 -cudart none -Xfatbin -compress-all \
    -gencode arch=compute_75,code='[sm_75,compute_75]'; then
	e=$("$FATBIN" --entries compressed.so | grep '^entry ')
	is "$(printf '%s\n' "$e" | grep -vc ' compressed$')" 0 \
	    "compressed: -compress-all compresses every entry ($(printf '%s\n' "$e" | wc -l | tr -d ' ') entries)"
fi
if build uncompressed sm_75 compute_75 -cudart none -Xfatbin -compress=false \
    -gencode arch=compute_75,code='[sm_75,compute_75]'; then
	is "$("$FATBIN" --entries uncompressed.so | grep -c ' compressed$')" 0 \
	    "uncompressed: -compress=false compresses none"
fi
if build rdc sm_80 compute_80 -cudart none -rdc=true \
    -gencode arch=compute_80,code='[sm_80,compute_80]'; then
	like "$("$FATBIN" --entries rdc.so)" '^entry __nv_relfatbin [0-9]+ 2 sm_80 ' \
	    "rdc: -rdc=true puts the relocatable code in __nv_relfatbin"
fi

printf 'int main(void) { return 0; }\n' >> k.cu
if nvcc_c -o prog k.cu -gencode arch=compute_86,code='[sm_86,compute_86]' \
    > prog.log 2>&1; then
	is "$(archs prog)" "sass sm_86 ptx compute_86" "an executable, not a library"
else
	skip "an executable" "nvcc refused it: $(head -n 1 prog.log)"
fi

printf 'int host_only(int x) { return x + 1; }\n' > host.c
if $FIXTURE_CC -shared -fPIC -o host.so host.c 2> cc.log; then
	is "$("$FATBIN" host.so | sed -n 's/^has_fatbin //p')" no \
	    "a host-only library has no fatbinary"
else
	skip "a host-only library" "$FIXTURE_CC failed: $(head -n 1 cc.log)"
fi

done_testing
