# Tests of the differential test against the real glibc loader.
#
# tests/lib/gentree.py builds seeded random library trees and compares
# `cudawiz why --json` on each with what glibc's loader does on it:
# `ld.so` in trace mode for `why --from FILE`, and dlopen-probe for
# `why NAME` (with and without --from). DIFF_TREES, DIFF_SEED and DIFF_JOBS
# in the environment change how many trees, the first seed and the
# parallelism (see the scripts).

# A plain program, like the one `cudawiz why NAME` assumes: no RPATH, no
# RUNPATH, and no sanitizer runtime, whose libraries would already be in
# the link map of a sanitized build (hence its own CFLAGS and LDFLAGS).
check_PROGRAMS += tests/tools/dlopen-probe
tests_tools_dlopen_probe_SOURCES = tests/tools/dlopen-probe.c
tests_tools_dlopen_probe_CFLAGS = -std=gnu11 $(WARN_CFLAGS) $(DEBUG_CFLAGS)
# dlopen() is in libc since glibc 2.34, older ones need libdl; as-needed
# keeps libdl.so.2 out of the link map where libc has it all.
tests_tools_dlopen_probe_LDFLAGS = -Wl,--as-needed
tests_tools_dlopen_probe_LDADD = -ldl

DIFF_CLI_TESTS = \
	tests/cli/loader-differential-selftest.sh \
	tests/cli/loader-differential.sh \
	tests/cli/loader-differential-dlopen.sh
TESTS += $(DIFF_CLI_TESTS)
EXTRA_DIST += $(DIFF_CLI_TESTS) tests/lib/gentree.py
