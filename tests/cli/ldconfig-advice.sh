#!/bin/sh
# `sudo ldconfig` only where it would change the answer (issue 18, point
# 5): the name is a SONAME of a file in a directory ld.so.conf lists, and
# the cache lacks it or is older than the file, its directory or the conf
# file. Each tree has a real ld.so.cache (tests/lib/mkldcache.py) whose
# age is set with touch -d, as ldconfig and package installs leave it.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/cli/explain-common.sh"

python3 -c 'import struct' 2>/dev/null ||
    skip_all "python3 is not installed (Debian package: python3)"

fixes() {	# CODE: the fix lines of every finding CODE
	jq -r --arg c "$1" '.findings[] | select(.code == $c) | .fix[]' "$FX_OUT"
}
all_commands() {
	jq -r '.findings[].fix[]' "$FX_OUT" | grep -v '^#'
}
lib_codes() {	# SONAME: the codes of the findings whose detail names it
	jq -r --arg s "$1" '.findings[] | select(.detail | contains($s)) | .code' \
	    "$FX_OUT" | sort -u | tr '\n' ' '
}
# mkcache ENTRY...: /etc/ld.so.cache holding the driver's libraries and
# the "entry KEY FLAGS PATH" lines given.
mkcache() {
	{
		echo 'format new'
		echo 'entry libcuda.so.1 0x303 /usr/lib/x86_64-linux-gnu/libcuda.so.1'
		echo 'entry libnvidia-ml.so.1 0x303 /usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1'
		for e in "$@"; do echo "$e"; done
	} > "$FX.spec"
	python3 "$TESTS_SRCDIR/lib/mkldcache.py" "$FX.spec" "$FX/etc/ld.so.cache" ||
	    { diag "mkldcache.py failed"; exit 99; }
	fx_dirs="$fx_dirs $FX.spec"
}
age() {	# DATE PATH...: set the mtime of each path (links themselves too)
	age_when=$1
	shift
	for age_p in "$@"; do
		touch -h -d "$age_when" "$FX$age_p" || exit 99
	done
}
# CUDA 12.4's runtime in DIR (the real file and its SONAME link), the
# machine's driver, and nothing else CUDA.
cudart_in() {	# DIR [SONAME]
	fx_new
	fx_healthy_gpu
	fx_so "$1/libcudart.so.12.4.127" "${2:-libcudart.so.12}"
	fx_link libcudart.so.12.4.127 "$1/libcudart.so.12"
}
L=/usr/local/lib
Q=$L/libcudart.so.12
MSG="OSError: libcudart.so.12: cannot open shared object file: No such file or directory"

# ---- (a) a runtime installed after the cache was built, in a directory
# ld.so.conf lists: the cache lacks it, ldconfig files it.
cudart_in $L
fx_file /etc/ld.so.conf.d/libc.conf "$L"
mkcache
age "2025-01-10 12:00" /etc/ld.so.cache
age "2025-03-01 12:00" $L/libcudart.so.12.4.127 $Q $L
fx_explain -- "$MSG"
like "$(fixes SONAME_OFF_SEARCH_PATH)" '^sudo ldconfig$' \
    "(a) cache older than the new libcudart.so.12 in a configured directory: sudo ldconfig"
unlike "$(fixes SONAME_OFF_SEARCH_PATH)" 'LD_LIBRARY_PATH|ld\.so\.conf\.d' \
    "(a) and nothing else: the directory is configured already"

# ---- (b) the same machine after ldconfig: the cache is newer and lists
# it, so the loader finds it and nothing asks for ldconfig.
cudart_in $L
fx_file /etc/ld.so.conf.d/libc.conf "$L"
mkcache "entry libcudart.so.12 0x303 $Q"
age "2025-03-01 12:00" $L/libcudart.so.12.4.127 $Q $L /etc/ld.so.conf.d/libc.conf
age "2025-03-02 12:00" /etc/ld.so.cache
fx_doctor
is "$(lib_codes libcudart.so.12)" "" "(b) no finding for libcudart.so.12: the cache resolves it"
unlike "$(all_commands)" 'ldconfig' "(b) cache newer and listing it: no ldconfig line"
fx_explain -- "$MSG"
unlike "$(all_commands)" 'ldconfig' "(b) explain: no ldconfig line either"

# ---- (b2) a file whose SONAME is another name (a hand-renamed copy):
# ldconfig files it under that name, never as libcudart.so.12.
cudart_in $L libcudart.so.12.4
fx_file /etc/ld.so.conf.d/libc.conf "$L"
mkcache
age "2025-01-10 12:00" /etc/ld.so.cache
age "2025-03-01 12:00" $L/libcudart.so.12.4.127 $Q $L
fx_explain -- "$MSG"
unlike "$(all_commands)" '^sudo ldconfig$' "(b2) another SONAME: no ldconfig"
like "$(fixes SONAME_OFF_SEARCH_PATH)" '^# ldconfig files /usr/local/lib/libcudart\.so\.12 under its SONAME libcudart\.so\.12\.4' \
    "(b2) the fix says why"
like "$(fixes SONAME_OFF_SEARCH_PATH)" "^export LD_LIBRARY_PATH=$L" \
    "(b2) and reaches it by searching the directory"

# ---- (c) libcuda.so (no version), even with a cache older than it:
# ldconfig never files an unversioned name.
fx_new
fx_healthy_gpu
d=/usr/lib/x86_64-linux-gnu/nvidia/current
fx_so $d/libcuda.so.580.65.06 libcuda.so.1
fx_link libcuda.so.580.65.06 $d/libcuda.so.1
fx_link libcuda.so.1 $d/libcuda.so
fx_file /etc/ld.so.conf.d/nvidia.conf "$d"
mkcache "entry libcuda.so.1 0x303 $d/libcuda.so.1"
age "2025-01-10 12:00" /etc/ld.so.cache
age "2025-03-01 12:00" $d/libcuda.so $d
fx_explain -- "OSError: libcuda.so: cannot open shared object file: No such file or directory"
unlike "$(all_commands)" 'ldconfig' "(c) libcuda.so: no ldconfig, though the cache is older"
like "$(jq -r '.findings[].fix[]' "$FX_OUT")" '^# ldconfig never puts libcuda\.so \(a name without a version\)' \
    "(c) the fix says why"

# ---- (d) a directory ld.so.conf does not list: the fix adds the conf
# file, and ldconfig follows it (that change is what makes it count).
O=/opt/cuda-12.4/lib64
cudart_in $O
mkcache
age "2025-03-02 12:00" /etc/ld.so.cache
age "2025-03-01 12:00" $O/libcudart.so.12.4.127 $O/libcudart.so.12 $O
fx_explain -- "$MSG"
tee_at=$(fixes SONAME_OFF_SEARCH_PATH | grep -n -m 1 "sudo tee /etc/ld.so.conf.d/" | cut -d: -f1)
ldc_at=$(fixes SONAME_OFF_SEARCH_PATH | grep -n -m 1 '^sudo ldconfig$' | cut -d: -f1)
[ -n "$tee_at" ] && [ "${ldc_at:-0}" = $((tee_at + 1)) ]
tap_result $? "(d) a new ld.so.conf.d file, then sudo ldconfig right after it (tee line ${tee_at:-none}, ldconfig ${ldc_at:-none})"

done_testing
