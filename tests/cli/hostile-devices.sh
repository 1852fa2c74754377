#!/bin/sh
# A hostile tree: device nodes where cudawiz reads files — a toolkit's
# version.json and version.txt, a library on LD_LIBRARY_PATH, ld.so.conf
# and ld.so.cache, the driver's /proc and /sys files (issue 16). Opening
# a device can do something by itself (a tape rewinds, a serial line
# hangs up), so a device in a --root tree must be refused by what it is,
# never opened for reading; strace(1), where it can run, checks that
# every open of one of these names is an O_PATH look at the name only.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_hostile.sh"

[ "$(id -u)" = 0 ] || skip_all "making device nodes needs root"
command -v mknod >/dev/null 2>&1 ||
    skip_all "mknod (Debian package: coreutils) is missing"

hostile_baseline

fx_new
# c 1 3 is /dev/null and b 7 250 an unused loop device: harmless even if
# opened, which is how a test may check that they are not.
dev() {
	mkdir -p "$(dirname "$FX$2")"
	rm -f "$FX$2"
	mknod "$FX$2" "$1" "$3" "$4" 2>/dev/null ||
	    skip_all "cannot make a device node in $FX_TMP"
}
fx_healthy_gpu
fx_toolkit 12.4.1
TK=/usr/local/cuda-12.4
L=$TK/targets/x86_64-linux/lib
dev c $TK/version.json 1 3
dev b $TK/version.txt 7 250
dev c $L/libcublas.so.12 1 3
dev c /etc/ld.so.conf 1 3
dev b /etc/ld.so.cache 7 250
dev c /proc/driver/nvidia/version 1 3
dev c /sys/module/nvidia/version 1 3
dev c /usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1 1 3

set -- CUDA_HOME=$TK LD_LIBRARY_PATH=$TK/lib64:/usr/lib/x86_64-linux-gnu \
    PATH=$TK/bin:/usr/bin

hostile_run "doctor --json" "doctor --json" "$@"
like "$(hostile_note $TK/version.json)" 'not a regular file' \
    "the device as version.json is noted"
like "$(fx_jq '.facts.driver.unreadable.module_version')" 'not a regular file' \
    "the device as /proc/driver/nvidia/version is unreadable, with why"
like "$(fx_jq '.facts.env.unreadable.ld_so_conf_read')" 'not a regular file' \
    "the device as ld.so.conf is unreadable, with why"

hostile_run "why libnvidia-ml.so.1" "why libnvidia-ml.so.1" "$@"
like "$(cat "$FX_OUT")" 'libnvidia-ml\.so\.1 stops the loader: .*not a regular file' \
    "the device library stops the loader, as in glibc"
hostile_run "why libcublas.so.12" "why libcublas.so.12" "$@"

strace_why=
strace=$(command -v strace 2>/dev/null)
if [ -z "$strace" ]; then
	strace_why="strace is not installed (Debian package: strace)"
elif ! "$strace" -f -qq -o /dev/null true 2>/dev/null; then
	strace_why="strace cannot trace here (ptrace is not permitted)"
fi
# The devices' names, as the tree's path or relative to a directory held
# (openat); the host's own /etc/ld.so.cache, which the dynamic loader
# reads at start, is neither.
names='version\.json|version\.txt|libcublas\.so\.12|ld\.so\.conf|ld\.so\.cache|version|libnvidia-ml\.so\.1'
for words in "doctor --json" "why libnvidia-ml.so.1" "why libcublas.so.12"; do
	if [ -n "$strace_why" ]; then
		skip "$words: no device in the tree is opened" "$strace_why"
		continue
	fi
	h_drop=${FX_DROP:-}
	FX_DROP="$strace -f -qq -e trace=open,openat,openat2 -o $FX.strace $h_drop"
	fx_cmd_env "$words" "$@"
	FX_DROP=$h_drop
	looked=$(grep -E "\"($FX[^\"]*/)?($names)\"" "$FX.strace" | grep -c O_PATH)
	opened=$(grep -E "\"($FX[^\"]*/)?($names)\"" "$FX.strace" |
	    grep -v O_PATH | head -n 5)
	ok "$words: strace saw the devices looked at ($looked times)" \
	    [ "${looked:-0}" -gt 0 ]
	is "$opened" "" "$words: no device in the tree is opened"
	rm -f "$FX.strace"
done

done_testing
