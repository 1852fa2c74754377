#!/bin/sh
# The host's loader describes itself (`ld.so --help`, the loader profile)
# once a run: the library probe, the framework probe and explain's own
# resolutions share the run's profile. Counted with strace on the host
# (nothing is executed under --root), with a Python environment holding a
# framework so that the framework probe sets up its loader too.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_framework.sh"

command -v strace >/dev/null 2>&1 || skip_all "strace is not installed (Debian package: strace)"
case ${CUDAWIZ_UNDER_VALGRIND:-} in
?*) skip_all "under a wrapper the executions are not cudawiz's alone" ;;
esac
strace -f -qq -e trace=execve -o /dev/null true 2>/dev/null ||
    skip_all "strace cannot trace here (ptrace refused)"

json_ok() { jq -e . "$1" > /dev/null 2>&1; }

fx_new
E=$FX/env
fx_condaenv /env 3.11
fx_torch "$FX_SITE" 2.1.0+cu118 11.8

helps() {	# WORDS...: how many times cudawiz WORDS executed a loader's --help
	strace -f -qq -e trace=execve -o "$FX.trace" env -i \
	    ${ASAN_OPTIONS:+ASAN_OPTIONS="$ASAN_OPTIONS"} \
	    ${UBSAN_OPTIONS:+UBSAN_OPTIONS="$UBSAN_OPTIONS"} LC_ALL=C \
	    CONDA_PREFIX="$E" HOME="$FX/home" PATH=/usr/bin:/bin \
	    "$CUDAWIZ" "$@" --matrix "$FX_MATRIX" > "$FX.out" 2> "$FX.err"
	grep -c 'execve("[^"]*ld[^"]*", \["[^"]*", "--help"\]' "$FX.trace"
}
fx_dirs="$fx_dirs $FX.trace $FX.out $FX.err"

n=$(helps doctor --json --no-verify)
ok "doctor ran" json_ok "$FX.out"
is "$(jq -r --arg p "$E" '[.facts.python_envs[] | select(.prefix == $p) |
    .frameworks[].name] | join(" ")' "$FX.out")" pytorch \
    "the framework probe found torch (and set up its loader)"
ok "the host's loader was asked at all" test "$n" -ge 1
is "$n" 1 "doctor: ld.so --help executed once"

n=$(helps explain 'libcudart.so.12: cannot open shared object file: No such file or directory')
is "$n" 1 "explain: ld.so --help executed once"

done_testing
