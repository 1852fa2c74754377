# Issue 16 (hardening, round two): the reads regression tests.

HARDEN_READS_TESTS = \
	tests/cli/driver-loaded-noproc.sh
TESTS += $(HARDEN_READS_TESTS)
EXTRA_DIST += $(HARDEN_READS_TESTS)
