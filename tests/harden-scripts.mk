# Issue 16 (hardening, round two): the scripts regression tests.
# --install-rc from many runs at once (point 8), the printed activation
# lines pasted into the real shells and --install-rc with a HOME that is
# not absolute (points 9, 10), the wizard's grid on a huge terminal
# (point 11); the loopback redirect (point 12) is in matrix-fetch.sh.

HARDEN_SCRIPTS_TESTS = \
	tests/cli/envscript-rc-lock.sh \
	tests/cli/env-activate.sh \
	tests/cli/wizard-bigterm.sh
TESTS += $(HARDEN_SCRIPTS_TESTS)
EXTRA_DIST += $(HARDEN_SCRIPTS_TESTS)
