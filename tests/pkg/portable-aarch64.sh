#!/bin/sh
# Issue 21, point 1: the aarch64 portable binaries (make portable
# PORTABLE_ARCH=aarch64; the gate's goal portable-aarch64), cross-compiled
# with Debian's cross toolchain and run under qemu-user. What a Grace or
# GH200 user downloads: the tarball and its checksum, unpacked here; both
# binaries AArch64 ELF needing nothing but glibc, none of it newer than
# 2.28; and the same answers as the x86_64 build on the same fixture tree
# (doctor's finding codes; explain and why whole, but the loader's
# platform, which must be aarch64), the helper beside the binary.
. "$TESTS_SRCDIR/lib/tap.sh"

: "${DIST_DIR:?DIST_DIR must name the dist folder of the build (make check-packages sets it)}"
: "${FX_TMP:=${TMPDIR:-/tmp}}"
# Where qemu-user finds the arm64 loader and libc: libc6-arm64-cross.
sysroot=${QEMU_LD_PREFIX:-/usr/aarch64-linux-gnu}
# glibc's own libraries are all a portable binary may need.
glibc_needed='ld-linux-aarch64.so.1 libc.so.6 libdl.so.2 libm.so.6 libpthread.so.0 librt.so.1'

command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 ||
	skip_all "no aarch64 cross compiler (Debian package: gcc-aarch64-linux-gnu)"
qemu=$(command -v qemu-aarch64) ||
	skip_all "no qemu-aarch64 (Debian package: qemu-user)"
[ -e "$sysroot/lib/ld-linux-aarch64.so.1" ] ||
	skip_all "no arm64 loader in $sysroot (Debian package: libc6-arm64-cross)"
for pair in ncursesw:libncurses-dev tinfo:libncurses-dev jansson:libjansson-dev \
    elf:libelf-dev z:zlib1g-dev zstd:libzstd-dev; do
	case $(aarch64-linux-gnu-gcc -print-file-name="lib${pair%%:*}.a") in
	/*) ;;
	*) skip_all "no arm64 lib${pair%%:*}.a (Debian package: ${pair#*:}:arm64, after dpkg --add-architecture arm64; ./bootstrap check --packages does both as root)" ;;
	esac
done
command -v jq >/dev/null 2>&1 || skip_all "jq is not installed (Debian package: jq)"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_gpu.sh"

native=$CUDAWIZ
version=$("$native" --version | sed -n '1{s/^cudawiz //;s/ (.*//;p;}')
name=cudawiz-$version-aarch64-linux
tarball=$DIST_DIR/$name.tar.gz
log=$DIST_DIR/make-portable-aarch64.log
# The x86_64 portable build is the reference when the gate made it.
[ -x "$DIST_DIR/cudawiz-$version-x86_64-linux/cudawiz" ] &&
	native=$DIST_DIR/cudawiz-$version-x86_64-linux/cudawiz

if [ ! -f "$tarball" ] || [ ! -f "$tarball.sha256" ]; then
	tap_result 1 "make portable PORTABLE_ARCH=aarch64 made $name.tar.gz and its .sha256"
	diag "the end of $log:"
	tail -n 30 "$log" 2>/dev/null | sed 's/^/#   /'
	done_testing
	exit
fi
ok "the tarball's SHA-256 is the one published beside it" \
    sh -c 'cd "$1" && sha256sum --quiet -c "$2.sha256"' sh "$DIST_DIR" "$name.tar.gz"

work=$(mktemp -d "$FX_TMP/portable-aarch64.XXXXXX") || exit 99
fx_dirs="${fx_dirs:-} $work"
tar -xzf "$tarball" -C "$work" || diag "cannot unpack $tarball"
dir=$work/$name
bin=$dir/cudawiz
helper=$dir/cudawiz-verify

for f in "$bin" "$helper"; do
	b=${f##*/}
	is "$(aarch64-linux-gnu-readelf -h "$f" 2>/dev/null | sed -n 's/^ *Machine: *//p')" \
	    AArch64 "$b is AArch64 code"
	# The highest GLIBC_x.y any symbol needs, in version order.
	top=$(aarch64-linux-gnu-objdump -T "$f" 2>/dev/null |
	    grep -o 'GLIBC_[0-9][0-9.]*' | sed 's/^GLIBC_//' | sort -u -t. -k1,1n -k2,2n -k3,3n |
	    tail -n 1)
	first=$(printf '%s\n2.28\n' "$top" | sort -t. -k1,1n -k2,2n -k3,3n | tail -n 1)
	is "$first" 2.28 "$b needs no glibc newer than 2.28 (it needs ${top:-nothing})"
	others=$(aarch64-linux-gnu-readelf -d "$f" 2>/dev/null |
	    sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | while read -r lib; do
		case " $glibc_needed " in *" $lib "*) ;; *) printf '%s ' "$lib" ;; esac
	done)
	is "$others" "" "$b needs no library but glibc's"
	# The size that counts is what strip leaves (issue 21: 6 MB at most).
	aarch64-linux-gnu-strip -o "$work/$b.stripped" "$f"
	size=$(wc -c < "$work/$b.stripped")
	ok "$b is 6 MB or less stripped ($size bytes)" [ "$size" -le 6000000 ]
done

# Run as the downloaded binary is: a wrapper lets fixture.sh's helpers run
# it under qemu like $CUDAWIZ, with their clean environment.
printf '#!/bin/sh\nexec "%s" -L "%s" "%s" "$@"\n' "$qemu" "$sysroot" "$bin" > "$work/cudawiz-qemu"
chmod +x "$work/cudawiz-qemu"
arm=$work/cudawiz-qemu

is "$("$arm" --version 2>&1 | head -n 1)" "$("$native" --version | head -n 1)" \
    "--version names the same version, commit and matrix as the x86_64 build"
is "$("$qemu" -L "$sysroot" "$helper" --version 2>&1 | head -n 1)" \
    "$("$(dirname "$native")/cudawiz-verify" --version 2>&1 | head -n 1)" \
    "cudawiz-verify runs and says the same as the x86_64 one"

# A machine that reads the same on both architectures: a GPU bound to
# nvidia and its module, a toolkit without libraries, and a broken
# environment; no ELF file, whose architecture would tell them apart.
fx_new
fx_kernel 6.1.0-13-arm64
fx_gpu 0000:01:00.0 2330 nvidia 030200
fx_nv_loaded 580.65.06
fx_file /usr/local/cuda-12.4/version.json '{ "cuda": { "name": "CUDA SDK", "version": "12.4.1" } }'
fx_link cuda-12.4 /usr/local/cuda
FX_ENV="PATH=/usr/local/cuda/bin:/usr/bin LD_LIBRARY_PATH=/usr/local/cuda/lib64:/opt/none CUDA_HOME=/opt/cuda"

CUDAWIZ=$native
fx_doctor
want_rc=$FX_RC
want=$(fx_codes | tr '\n' ' ')
CUDAWIZ=$arm
fx_doctor
is "$(fx_jq '.findings | type')" array "doctor --json under qemu prints a report"
is "$(fx_codes | tr '\n' ' ')" "$want" "doctor finds what the x86_64 build finds"
is "$FX_RC" "$want_rc" "and exits as it does"
like "$want" LIBCUDA_NOT_FOUND "(the fixture has findings to compare)"

# explain and why: the whole document, once the loader's platform (the
# architecture the binary was built for) and the version are set aside.
same_json() {	# DESCRIPTION WORDS ARG
	CUDAWIZ=$native
	fx_cmd_env "$2" -- "$3"
	jq -S 'del(.version, .loader.platform)' "$FX_OUT" > "$work/want.json" 2>&1
	CUDAWIZ=$arm
	fx_cmd_env "$2" -- "$3"
	jq -S 'del(.version, .loader.platform)' "$FX_OUT" > "$work/got.json" 2>&1
	if jq -e -n --slurpfile a "$work/want.json" --slurpfile b "$work/got.json" \
	    '$a == $b and ($a[0].findings | length) > 0' >/dev/null 2>&1; then
		tap_result 0 "$1"
	else
		tap_result 1 "$1"
		diff "$work/want.json" "$work/got.json" | head -n 30 | sed 's/^/#   /'
	fi
}
same_json "explain --json answers as on x86_64" "explain --json" \
    "ImportError: libcudart.so.12: cannot open shared object file: No such file or directory"
same_json "why --json answers as on x86_64" "why --json" libcudart.so.12
fx_cmd_env "why --json" -- libcudart.so.12
is "$(fx_jq .loader.platform)" aarch64 "why describes the aarch64 loader"

# The helper is looked for next to the binary (verify.c reads
# /proc/self/exe, which qemu-user answers with the binary's path); a live
# `cudawiz verify` cannot show it here: the helper it starts is an arm64
# program that the host cannot exec without binfmt_misc.
ok "cudawiz-verify is unpacked next to cudawiz, executable" [ -x "$helper" ]

done_testing
