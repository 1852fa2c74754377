#!/bin/sh
# dist-files.sh SRCDIR DISTDIR: every file git tracks in SRCDIR is in
# DISTDIR (the tarball, unpacked by make distcheck), but the few named
# below. This is what proves that every file a test, the build or the
# install reads is distributed, all at once: the dist tree's own `make
# check` runs a subset of the suite (tests/gates.mk, check-dist), and a
# file forgotten in EXTRA_DIST that only an unrun test reads would
# otherwise go unseen until someone builds from the tarball.
#
# Outside a git checkout (distcheck run from an unpacked tarball) there
# is nothing to compare with: it says so and passes.
set -u
src=$1
dist=$2

if ! command -v git >/dev/null 2>&1; then
	echo "dist-files: git is not installed: the tarball is not compared with the checkout"
	exit 0
fi
top=$(git -C "$src" rev-parse --show-toplevel 2>/dev/null) || top=
if [ -z "$top" ] || [ "$(cd "$top" && pwd -P)" != "$(cd "$src" && pwd -P)" ]; then
	echo "dist-files: $src is not the top of a git checkout: the tarball is not compared with one"
	exit 0
fi

# Tracked, and rightly not in the tarball:
#   .gitignore, build-aux/.keep   the checkout's own bookkeeping
#   bench/gpu/*                   measurements from the lent GPU machines,
#                                 records that neither build nor test reads
#   */__pycache__/*               Python byte code (ignored; one file was
#                                 committed by mistake)
missing=$(git -C "$src" ls-files | while IFS= read -r f; do
	case $f in
	.gitignore | build-aux/.keep | bench/gpu/* | */__pycache__/*) continue ;;
	esac
	[ -e "$dist/$f" ] || [ -L "$dist/$f" ] || printf '%s\n' "$f"
done)
if [ -n "$missing" ]; then
	n=$(printf '%s\n' "$missing" | wc -l)
	echo "dist-files: $n file(s) git tracks are not in the tarball; add them to"
	echo "EXTRA_DIST (or a _SOURCES list) in the .mk of their folder:"
	printf '%s\n' "$missing" | sed 's/^/  /'
	exit 1
fi
echo "dist-files: the tarball holds every file git tracks, the excluded few aside"
