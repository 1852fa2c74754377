# Issue 16 (hardening, round two): the children regression tests.
#
# The processes cudawiz starts (the helper, the shell of env --check): the
# end of a run is the child's exit, not its pipes; nothing it started
# outlives the call (a setsid() daemon, a SIGTERM on cudawiz included); it
# inherits no descriptor but its own.

HARDEN_CHILDREN_TESTS = \
	tests/cli/children-verify.sh \
	tests/cli/children-env.sh
TESTS += $(HARDEN_CHILDREN_TESTS)
EXTRA_DIST += $(HARDEN_CHILDREN_TESTS)
