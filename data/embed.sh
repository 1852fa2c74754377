#!/bin/sh
# Turns a JSON document into C source defining
#   const char   matrix_embedded_json[]     (the bytes, then a NUL)
#   const size_t matrix_embedded_json_len   (the bytes without the NUL)
# for compiling the compatibility matrix into cudawiz.
#
# The bytes are written as octal character constants, not one string
# literal: C only promises 4095 characters in a literal, and '\ooo' gives
# the right char value whether char is signed or not, with no warning.
# Plain sh, od and awk, so a build needs nothing more than POSIX.
#
# Usage: embed.sh FILE.json > embedded.c
set -eu
LC_ALL=C
export LC_ALL

if [ $# -ne 1 ]; then
	echo "usage: embed.sh FILE.json > OUT.c" >&2
	exit 2
fi
in=$1
if [ ! -r "$in" ] || [ -d "$in" ]; then
	echo "embed.sh: cannot read $in" >&2
	exit 1
fi
# Counted separately so a short read by od cannot pass unnoticed.
size=$(wc -c < "$in" | tr -d ' ')

cat <<'HEAD'
/* Generated from data/matrix.json by data/embed.sh; do not edit. */
#include <stddef.h>

#include "matrix/internal.h"

const char matrix_embedded_json[] = {
HEAD
od -A n -v -t o1 "$in" | awk -v want="$size" '
BEGIN { n = 0 }
{
	for (i = 1; i <= NF; i++) {
		line = line "'"'"'\\" $i "'"'"',"
		if (++n % 12 == 0) {
			print "\t" line
			line = ""
		}
	}
}
END {
	if (line != "")
		print "\t" line
	print "\t'"'"'\\0'"'"'"
	print "};"
	print "const size_t matrix_embedded_json_len = " n ";"
	if (n != want) {
		print "embed.sh: read " n " of " want " bytes" > "/dev/stderr"
		exit 1
	}
}'
