# Tests of doctor's library resolution and the loader findings.

check_PROGRAMS += tests/unit/test_rules_loader
tests_unit_test_rules_loader_SOURCES = tests/unit/test_rules_loader.c
tests_unit_test_rules_loader_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_rules_loader_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/test_rules_loader

LIBS_CLI_TESTS = \
	tests/cli/libs-json.sh \
	tests/cli/libs-libcuda.sh \
	tests/cli/driver-fwdcompat.sh \
	tests/cli/wsl-libcuda.sh \
	tests/cli/libs-soname.sh \
	tests/cli/libs-broken.sh \
	tests/cli/libs-mixed.sh
TESTS += $(LIBS_CLI_TESTS)
EXTRA_DIST += $(LIBS_CLI_TESTS)
