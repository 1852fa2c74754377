# Tests of the env probes and rules.

check_PROGRAMS += tests/unit/test_rules_env tests/unit/test_rules_toolkit
tests_unit_test_rules_env_SOURCES = tests/unit/test_rules_env.c
tests_unit_test_rules_env_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_rules_env_LDADD = $(UNIT_LDADD)
tests_unit_test_rules_toolkit_SOURCES = tests/unit/test_rules_toolkit.c
tests_unit_test_rules_toolkit_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_rules_toolkit_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/test_rules_env tests/unit/test_rules_toolkit

ENV_CLI_TESTS = \
	tests/cli/env-paths.sh \
	tests/cli/env-bigpath.sh \
	tests/cli/env-ldconf.sh \
	tests/cli/env-libsearch.sh \
	tests/cli/env-toolkit.sh
TESTS += $(ENV_CLI_TESTS)
EXTRA_DIST += $(ENV_CLI_TESTS) tests/lib/fx_env.sh
