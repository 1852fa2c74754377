#!/bin/sh
# Big files: the reader reads headers, never payloads, so a gigabyte of
# fatbinary lists in milliseconds; and the bound on the number of headers
# holds exactly where it is documented (FATBIN_MAX_HEADERS, 1,000,000).
#
# The times are reported, never asserted (a loaded CI machine, a
# sanitizer build): the bounds are the bytes read, counted by the kernel
# (/proc/self/io), which reading the payloads or a header twice would
# exceed.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fx_elf.sh"

FATBIN=${FATBIN:-$(dirname "$CUDAWIZ")/tests/tools/fatbin-list}
[ -x "$FATBIN" ] || skip_all "$FATBIN is not built"
cd "$ELF_TMP" || exit 99

summary() {
	"$FATBIN" "$@" 2>&1 | sed '/^file /d; /^read_bytes /d' | tr '\n' ' ' |
	    sed 's/ $//'
}

# ms COMMAND...: runs COMMAND (output to run.out) and prints how many
# milliseconds it took; 0 where date(1) has no nanoseconds.
ms() {
	ms_t0=$(date +%s%N)
	"$@" > run.out 2>&1
	ms_t1=$(date +%s%N)
	case $ms_t0$ms_t1 in
	*[!0-9]*) echo 0 ;;
	*) echo $(((ms_t1 - ms_t0) / 1000000)) ;;
	esac
}

# 3,001 entries of 358 KB each, in two fatbinaries: 1 GiB, all payload
# holes but the headers.
if ! "$FATBIN" --make big.elf --sparse --payload 357913 \
    '.nv_fatbin=1000*sm_75,1000*sm_80/1000*sm_90,compute_90' 2> make.log; then
	skip_all "cannot write a sparse 1 GiB file: $(head -n 1 make.log)"
fi
size=$(wc -c < big.elf | tr -d ' ')
used=$(du -k big.elf | awk '{ print $1 }')
if [ "$used" -gt 131072 ]; then
	rm -f big.elf
	skip_all "this file system does not keep sparse files ($used KiB used)"
fi
ok "the file is over 1 GiB ($size bytes, $used KiB on disk)" \
    test "$size" -gt 1073741824
t=$(ms "$FATBIN" --io big.elf)
is "$(sed '/^file /d; /^read_bytes /d' run.out | tr '\n' ' ')" \
    "has_fatbin yes entries 3001 sass sm_75 sm_80 sm_90 ptx compute_90 " \
    "1 GiB of fatbinary: every entry listed"
diag "1 GiB, 3001 entries: listed in $t ms"
rb=$(sed -n 's/^read_bytes //p' run.out)
if [ -n "$rb" ]; then
	# 2 fatbinary headers of 16 bytes and 3001 entry headers of 64.
	ok "only the headers are read: $rb bytes of $size" \
	    test "$rb" -ge 192096 -a "$rb" -lt 262144
else
	skip "bytes read" "/proc/self/io is not readable here"
fi

# Dense: 100,000 fatbinaries of 3 small entries each.
awk 'BEGIN { printf "sm_80,sm_86,compute_86"
	for (i = 1; i < 100000; i++) printf "/sm_80,sm_86,compute_86"
	print "" }' > dense.spec
"$FATBIN" --make dense.elf --payload 8 .nv_fatbin=@dense.spec
t=$(ms "$FATBIN" --io dense.elf)
is "$(sed '/^file /d; /^read_bytes /d' run.out | tr '\n' ' ')" \
    "has_fatbin yes entries 300000 sass sm_80 sm_86 ptx compute_86 " \
    "100,000 fatbinaries in one section"
diag "100,000 fatbinaries, 300,000 entries: listed in $t ms"
rb=$(sed -n 's/^read_bytes //p' run.out)
size=$(wc -c < dense.elf | tr -d ' ')
if [ -n "$rb" ]; then
	# 100,000 headers of 16 bytes and 300,000 entry headers of 64.
	ok "each header is read once: $rb bytes of $size" \
	    test "$rb" -ge 20800000 -a "$rb" -le "$size"
else
	skip "bytes read" "/proc/self/io is not readable here"
fi

# The bound: one fatbinary header and 999,999 entries is 1,000,000
# headers and lists; one more entry is refused.
"$FATBIN" --make lim.elf --payload 0 '.nv_fatbin=999999*sm_80'
t=$(ms "$FATBIN" lim.elf)
is "$(sed '/^file /d' run.out | tr '\n' ' ')" \
    "has_fatbin yes entries 999999 sass sm_80 ptx - " \
    "1,000,000 headers: listed"
diag "1,000,000 headers: listed in $t ms"
rm -f lim.elf
"$FATBIN" --make over.elf --payload 0 '.nv_fatbin=1000000*sm_80'
like "$(summary over.elf)" \
    '^error over\.elf: more than 1000000 fatbinary headers: the file is taken as damaged$' \
    "1,000,001 headers: refused as damaged"
rm -f over.elf
# Empty fatbinaries count too: 1,000,001 of them, 16 bytes each.
awk 'BEGIN { for (i = 0; i < 1000000; i++) printf "/"; print "" }' > empty.spec
"$FATBIN" --make empties.elf .nv_fatbin=@empty.spec
like "$(summary empties.elf)" '^error empties\.elf: more than 1000000 fatbinary headers' \
    "1,000,001 empty fatbinaries: refused as damaged"
rm -f empties.elf

done_testing
