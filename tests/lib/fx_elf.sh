# Helpers for the ELF reader tests. Source after tap.sh.
#
#   $ELFDUMP                    tests/tools/elfobj-dump (skips when absent)
#   $ELF_TMP                    a scratch directory, removed at exit
#   elf_patch FILE OFFSET BYTE...  overwrite bytes (decimal or 0x..) in place
#   elf_readelf FILE            readelf's view of FILE in elfobj-dump's lines
#                               (needed, soname, rpath, runpath, nodeflib,
#                               verdef, verneed, sym)
#   elf_dump [ARG...] FILE      elfobj-dump's lines without file/class/…
#   elf_canon                   filter: the lines of one file in a fixed
#                               order (NEEDED and versions in file order,
#                               the other dynamic facts sorted, symbols in
#                               table order; a version node's own
#                               symbol without its version, as readelf
#                               shows it)
#   elf_strip_sections FILE     clear the section header fields (sstrip)

: "${CUDAWIZ:?CUDAWIZ must name the cudawiz binary (make check sets it)}"
: "${FIXTURE_CC:=cc}"
: "${FX_TMP:=${TMPDIR:-/tmp}}"

ELFDUMP=${ELFDUMP:-$(dirname "$CUDAWIZ")/tests/tools/elfobj-dump}
[ -x "$ELFDUMP" ] || skip_all "$ELFDUMP is not built"

mkdir -p "$FX_TMP"
ELF_TMP=$(mktemp -d "$FX_TMP/cudawiz-elf.XXXXXX") || exit 99
elf_cleanup() {
	[ -n "${FX_KEEP:-}" ] && return
	chmod -R u+rwx "$ELF_TMP" 2>/dev/null
	rm -rf "$ELF_TMP"
}
trap elf_cleanup EXIT

elf_patch() {
	elf_pf=$1
	elf_off=$2
	shift 2
	elf_bytes=
	for b in "$@"; do
		elf_bytes="$elf_bytes\\$(printf '%03o' "$((b))")"
	done
	# shellcheck disable=SC2059
	printf "$elf_bytes" |
	    dd of="$elf_pf" bs=1 seek="$elf_off" conv=notrunc 2>/dev/null
}

elf_dump() {
	"$ELFDUMP" "$@" | sed -n '/^file /d; /^class /d; /^machine /d;
	    /^type /d; /^dynamic$/d; /^interp /d; p'
}

# readelf -d -V --dyn-syms in elfobj-dump's words. Local symbols and the
# null symbol are left out, as elfobj leaves them out; an undefined
# symbol's "name@VER (n)" is a default version reference.
elf_readelf() {
	LC_ALL=C readelf -d -V --dyn-syms -W "$1" 2>/dev/null | awk '
	function inbrackets(s) { sub(/^[^[]*\[/, "", s); sub(/\][^]]*$/, "", s); return s }
	/^Dynamic section at offset/ { st = "dyn"; next }
	/^Version symbols section/ { st = "versym"; next }
	/^Version definition section/ { st = "vdef"; next }
	/^Version needs section/ { st = "vneed"; next }
	/^Symbol table / { st = "sym"; next }
	st == "dyn" && /\(NEEDED\)/ { print "needed " inbrackets($0) }
	st == "dyn" && /\(SONAME\)/ { print "soname " inbrackets($0) }
	st == "dyn" && /\(RPATH\)/ { print "rpath " inbrackets($0) }
	st == "dyn" && /\(RUNPATH\)/ { print "runpath " inbrackets($0) }
	st == "dyn" && /\(FLAGS_1\)/ && / NODEFLIB/ { print "nodeflib" }
	st == "vdef" && / Flags: / && / Name: / {
		flags = $0; sub(/.* Flags: /, "", flags); sub(/  Index:.*/, "", flags)
		name = $0; sub(/.* Name: /, "", name)
		if (flags !~ /BASE/) print "verdef " name
	}
	st == "vneed" && / File: / {
		file = $0; sub(/.* File: /, "", file); sub(/  Cnt:.*/, "", file)
	}
	st == "vneed" && / Name: / {
		name = $0; sub(/.* Name: /, "", name); sub(/  Flags:.*/, "", name)
		flags = $0; sub(/.* Flags: /, "", flags); sub(/  Version:.*/, "", flags)
		print "verneed " file " " name (flags ~ /WEAK/ ? " weak" : "")
	}
	st == "sym" && $1 ~ /^[0-9]+:$/ && $1 != "0:" && $5 != "LOCAL" {
		if ($NF ~ /^\([0-9]+\)$/) { name = $(NF - 1); ndx = $(NF - 2) }
		else { name = $NF; ndx = $(NF - 1) }
		if (ndx == "UND") {
			sub(/@/, "@@", name)
			line = "sym undef " name
		} else {
			line = "sym def " name
		}
		print line ($5 == "WEAK" ? " weak" : "")
	}'
}

elf_canon() {
	awk '
	/^needed / { needed[n++] = $0; next }
	/^(soname|rpath|runpath|nodeflib)/ { other[m++] = $0; next }
	/^(verdef|verneed) / { ver[v++] = $0; next }
	/^sym / {
		# readelf shows the symbol of a version node (FOO_1,
		# defined in FOO_1) without its version.
		split($3, nv, "@@")
		if (nv[2] != "" && nv[1] == nv[2]) sub(/@@.*/, "", $3)
		sym[s++] = $0; next
	}
	END {
		for (i = 0; i < n; i++) print needed[i]
		for (i = 0; i < m; i++) for (j = i + 1; j < m; j++)
			if (other[j] < other[i]) { t = other[i]; other[i] = other[j]; other[j] = t }
		for (i = 0; i < m; i++) print other[i]
		for (i = 0; i < v; i++) print ver[i]
		for (i = 0; i < s; i++) print sym[i]
	}'
}

# elf_strip_sections FILE: clear e_shoff, e_shnum and e_shstrndx, as
# sstrip does, so nothing can be found through section headers.
elf_strip_sections() {
	case $(od -An -tu1 -j4 -N1 "$1" | tr -d ' ') in
	1)	elf_patch "$1" 32 0 0 0 0
		elf_patch "$1" 48 0 0 0 0 ;;
	2)	elf_patch "$1" 40 0 0 0 0 0 0 0 0
		elf_patch "$1" 60 0 0 0 0 ;;
	*)	return 1 ;;
	esac
}
