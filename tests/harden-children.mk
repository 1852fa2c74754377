# Issue 16 (hardening, round two): the children regression tests.
#
# The processes cudawiz starts (the helper, the shell of env --check): the
# end of a run is the child's exit, not its pipes; nothing it started
# outlives the call (a setsid() daemon, a SIGTERM on cudawiz included); it
# inherits no descriptor but its own.

check_PROGRAMS += tests/unit/test_runcap
tests_unit_test_runcap_SOURCES = tests/unit/test_runcap.c
tests_unit_test_runcap_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_runcap_LDADD = $(UNIT_LDADD)
HARDEN_CHILDREN_CLI = \
	tests/cli/children-verify.sh \
	tests/cli/children-env.sh
TESTS += tests/unit/test_runcap $(HARDEN_CHILDREN_CLI)
EXTRA_DIST += $(HARDEN_CHILDREN_CLI)
