#!/bin/sh
# Builds the libraries the Windows build links (make windows;
# compat/windows.mk): jansson, from Debian's source package, as a static
# mingw-w64 library. Nothing else: the Windows build is offline (no
# libcurl), reads no ELF (no libelf) and has no wizard (no ncurses).
#
# Usage: windows-deps.sh CACHE HOST
# Leaves CACHE/HOST/lib/libjansson.a and CACHE/HOST/lib/pkgconfig/jansson.pc;
# (needs curl, cmake and mingw-w64); a second run with them present does nothing. CACHE lies outside the
# source tree (make windows: ~/.cache/cudawiz-build), so a clean of the
# tree does not throw away what took a download.
set -eu

cache=$1
host=$2
# bookworm's jansson; the .dsc is fetched too and the tarball's sha256
# checked against it (and against the one recorded here, so a changed
# .dsc is noticed as well).
version=2.14
debrev=2
sha256=c739578bf6b764aa0752db9a2fdadcfe921c78f1228c7ec0bb47fa804c55d17b
pool=${DEBIAN_POOL:-http://deb.debian.org/debian/pool/main/j/jansson}
prefix=$cache/$host

if test -f "$prefix/lib/libjansson.a" && test -f "$prefix/lib/pkgconfig/jansson.pc"; then
	exit 0
fi
for tool in curl cmake "$host-gcc" "$host-ld" "$host-objcopy" "$host-ar"; do
	command -v "$tool" >/dev/null 2>&1 || {
		echo "windows-deps.sh: $tool was not found (Debian packages: curl, cmake, gcc-mingw-w64-x86-64, binutils-mingw-w64-x86-64)" >&2
		exit 1
	}
done
mkdir -p "$cache"
cd "$cache"
dsc=jansson_$version-$debrev.dsc
tarball=jansson_$version.orig.tar.gz
for f in "$dsc" "$tarball"; do
	if test ! -f "$f"; then
		echo "fetching $pool/$f"
		curl -fsS --retry 2 --max-time 120 -o "$f.part" "$pool/$f"
		mv "$f.part" "$f"
	fi
done
want=$(sed -n '/^Checksums-Sha256:/,/^[A-Z]/p' "$dsc" | awk -v f="$tarball" '$3 == f { print $1 }')
got=$(sha256sum "$tarball" | cut -d' ' -f1)
if test "$want" != "$sha256" || test "$got" != "$sha256"; then
	echo "windows-deps.sh: $tarball: sha256 $got, the .dsc says ${want:-nothing}, expected $sha256" >&2
	rm -f "$tarball"
	exit 1
fi
rm -rf "jansson-$version" "build-jansson-$host"
tar xzf "$tarball"
mkdir "build-jansson-$host"
cd "build-jansson-$host"
# The release tarball's configure is not in Debian's .orig (a git
# export: configure.ac without libtool's files), so jansson's own CMake
# build, cross-compiling for Windows.
cmake -S "../jansson-$version" -B . -DCMAKE_SYSTEM_NAME=Windows \
	-DCMAKE_C_COMPILER="$host-gcc" -DCMAKE_RC_COMPILER="$host-windres" \
	-DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix" \
	-DJANSSON_BUILD_SHARED_LIBS=OFF -DJANSSON_BUILD_DOCS=OFF \
	-DJANSSON_WITHOUT_TESTS=ON -DJANSSON_EXAMPLES=OFF >/dev/null
# Its own jobs, apart from a parent make's jobserver.
MAKEFLAGS= make -s -j"${JOBS:-2}"
MAKEFLAGS= make -s install >/dev/null
# Its .a exports its internals (utf8_encode, strbuffer_*, …), which
# clash with cudawiz's own: one relocatable object with only the API
# (json_*, jansson_*) left global, as configure.ac does for make portable.
cd "$prefix/lib"
"$host-ld" -r -o jansson-all.o --whole-archive libjansson.a --no-whole-archive
"$host-objcopy" -w --keep-global-symbol='json_*' \
	--keep-global-symbol='jansson_*' jansson-all.o jansson-local.o
rm -f libjansson.a jansson-all.o
"$host-ar" cr libjansson.a jansson-local.o
rm -f jansson-local.o
echo "jansson $version for $host in $prefix"
