# The PE tests' shared part: pe-dump, and objdump -p's and windres's
# view of a DLL in pe-dump's lines.
#   $PEDUMP                     tests/tools/pe-dump (skips when absent)
#   pe_reference PREFIX FILE    objdump -p and windres -i of the mingw-w64
#                               tools named PREFIX-*, as pe-dump's lines
#   pe_ours FILE                pe-dump --exports FILE, in the same order
#   pe_sort_facts               header facts, then imports and exports as
#                               they came, then the rest

PEDUMP=${PEDUMP:-$(dirname "$CUDAWIZ")/tests/tools/pe-dump}
[ -x "$PEDUMP" ] || skip_all "no pe-dump at $PEDUMP (make check builds it)"
command -v perl >/dev/null 2>&1 ||
	skip_all "perl is not installed (Debian package perl-base); it decodes windres's \\x escapes"

# objdump -p's view of FILE in pe-dump's lines, with the versions from
# the resource windres decompiles.
pe_reference() {	# PREFIX FILE
	"$1-objdump" -p "$2" | awk '
	/file format pei-x86-64/ { print "machine 0x8664 x86-64" }
	/file format pei-i386/ { print "machine 0x14c i386" }
	/^Magic/ { print "format " ($3 == "(PE32+)" ? "PE32+" : "PE32") }
	/^Characteristics/ { c = $2 }
	/^Subsystem/ { printf "subsystem %d\n", ("0x" $2) + 0 }
	/^\tDLL Name: / { imp[++ni] = $3 }
	/^Name / && intab == 0 { expdll = $3 }
	/^\[Ordinal\/Name Pointer\] Table/ { intab = 1; next }
	intab && /^\t\[/ { ex[++ne] = $NF; next }
	intab && /^$/ { intab = 0 }
	END {
		print "dll " (c ~ /2[0-9a-f][0-9a-f][0-9a-f]$/ ? "yes" : "no")
		for (i = 1; i <= ni; i++) print "import " imp[i]
		if (expdll != "") print "export-dll " expdll
		for (i = 1; i <= ne; i++) print "export " ex[i]
	}' | pe_sort_facts
	# The reader's version resource: the one in US English (LANGUAGE
	# 9, 1), else the first; in it the first string of each name.
	# windres writes other than ASCII as \xNNNN (UTF-16): perl decodes.
	"$1-windres" -i "$2" -O rc 2>/dev/null | awk '
	/^LANGUAGE / { lang = $0 }
	/VERSIONINFO$/ { k++; us[k] = (lang == "LANGUAGE 9, 1") }
	k && !done[k] { buf[k] = buf[k] $0 "\n" }
	/^END$/ && k { done[k] = 1 }
	END {
		pick = 1
		for (i = k; i >= 1; i--) if (us[i]) pick = i
		printf "%s", buf[pick]
	}' | awk -F'"' '
	/^ FILEVERSION / { v = $0; sub(/^ FILEVERSION /, "", v); gsub(/, /, ".", v); print "file-version " v }
	/^ PRODUCTVERSION / { v = $0; sub(/^ PRODUCTVERSION /, "", v); gsub(/, /, ".", v); print "product-version " v }
	/VALUE "(FileVersion|ProductVersion|ProductName)"/ && !seen[$2]++ {
		print "string " $2 " " $4
	}' | perl -CS -pe 's/\\x([0-9a-fA-F]{4})/chr(hex($1))/ge'
}

# The facts in a fixed order: header lines, then imports and exports as
# they came, then versions (each tool gives those in its own order).
pe_sort_facts() {
	awk 'BEGIN { n = split("machine format dll subsystem import delay export-dll export", k, " ")
		for (i = 1; i <= n; i++) order[k[i]] = i }
	{ o = ($1 in order) ? order[$1] : 9; printf "%d %06d %s\n", o, NR, $0 }' |
	    sort -n -k1,1 -k2,2 | cut -d' ' -f3-
}

pe_ours() {	# FILE
	"$PEDUMP" --exports "$1" | grep -v '^file ' | pe_sort_facts
}
