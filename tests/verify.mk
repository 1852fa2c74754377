# Tests of live verification as cudawiz runs it (issue 6): the parent's
# plan, its timeouts and its reading of the helper, the findings, and
# `cudawiz verify` / `doctor` end to end.

check_PROGRAMS += tests/unit/test_verify_exec tests/unit/test_rules_verify
tests_unit_test_verify_exec_SOURCES = tests/unit/test_verify_exec.c
tests_unit_test_verify_exec_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_verify_exec_LDADD = $(UNIT_LDADD)
tests_unit_test_rules_verify_SOURCES = tests/unit/test_rules_verify.c
tests_unit_test_rules_verify_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_rules_verify_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/test_verify_exec tests/unit/test_rules_verify
VERIFY_CLI_TESTS = tests/cli/verify-cli.sh
TESTS += $(VERIFY_CLI_TESTS)
EXTRA_DIST += $(VERIFY_CLI_TESTS)
