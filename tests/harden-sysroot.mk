# Issue 16 (hardening, round two): the sysroot regression tests.
# hostile-devices: device nodes in a --root tree are refused by their type
# and never opened (strace checks it where it can run). The swap race is
# in tests/unit/test_sysroot.c; the FIFO cases in tests/cli/hostile-fifo.sh.
HARDEN_SYSROOT_TESTS = \
	tests/cli/hostile-devices.sh
TESTS += $(HARDEN_SYSROOT_TESTS)
EXTRA_DIST += $(HARDEN_SYSROOT_TESTS)
