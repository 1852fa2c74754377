# Issue 16 (hardening, round two): the scale regression tests.
# 10,000 distinct LD_LIBRARY_PATH directories, a 125,000-directory
# ld.so.conf, a library with 300 needs and a 10,000-entry RPATH: bounded
# by counts (records, bytes, steps, peak RSS), never by time (bench/).

HARDEN_SCALE_TESTS = \
	tests/cli/scale-ldpath.sh \
	tests/cli/scale-ldconf.sh \
	tests/cli/scale-why-needs.sh
TESTS += $(HARDEN_SCALE_TESTS)
EXTRA_DIST += $(HARDEN_SCALE_TESTS)

# Not a test: bench/run.sh runs it (the growth table of bench/RESULTS.md).
EXTRA_DIST += bench/scale.sh
