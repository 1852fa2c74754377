# Tests of `cudawiz env` as a command (issue 7): the plan it builds from
# doctor's facts, its options and errors, the findings that name it, and
# `env --check`'s before/after proof. The script writers' own tests are in
# tests/envscript.mk.
# env-named-dirs.sh: --toolkit DIR and --cudnn DIR that doctor did not
# find, and what is refused (issue 18).
ENVCMD_TESTS = tests/cli/env-plan.sh tests/cli/env-check.sh \
	tests/cli/env-named-dirs.sh
TESTS += $(ENVCMD_TESTS)
EXTRA_DIST += $(ENVCMD_TESTS)
check_PROGRAMS += tests/unit/test_envcheck
tests_unit_test_envcheck_SOURCES = tests/unit/test_envcheck.c
tests_unit_test_envcheck_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_envcheck_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/test_envcheck
