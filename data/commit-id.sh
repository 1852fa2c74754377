#!/bin/sh
# Prints the commit cudawiz is built from, for --version (one line): the
# one `make dist` wrote into a tarball (.tarball-commit) first, so a
# tarball unpacked inside some other git checkout does not take that
# checkout's commit; else git's short hash of SRCDIR's HEAD, with
# "-dirty" for uncommitted changes; else "unknown".
# Usage: commit-id.sh SRCDIR
src=${1:-.}
if [ -r "$src/.tarball-commit" ]; then
	c=$(sed -n '1p' "$src/.tarball-commit")
elif [ -e "$src/.git" ]; then
	# --exclude='*': the hash, never a tag's name.
	c=$(git -C "$src" describe --always --dirty --abbrev=12 \
	    --exclude='*' 2>/dev/null)
fi
# Only what is safe inside a C string.
case ${c:-} in
'' | *[!0-9a-zA-Z.-]*) c=unknown ;;
esac
printf '%s\n' "$c"
