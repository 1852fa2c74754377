# `cudawiz explain`: the tests of the recogniser and its rules.

check_PROGRAMS += tests/unit/test_recognize
tests_unit_test_recognize_SOURCES = tests/unit/test_recognize.c
tests_unit_test_recognize_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_recognize_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/test_recognize

# explain-common.sh holds their helpers; it is sourced, not run.
EXPLAIN_CLI_TESTS = \
	tests/cli/explain-input.sh \
	tests/cli/explain-soname.sh \
	tests/cli/explain-stub.sh \
	tests/cli/explain-version.sh \
	tests/cli/explain-driver.sh \
	tests/cli/explain-cudnn.sh \
	tests/cli/explain-symbols.sh \
	tests/cli/explain-elsewhere.sh \
	tests/cli/explain-corpus.sh
TESTS += $(EXPLAIN_CLI_TESTS)
EXTRA_DIST += $(EXPLAIN_CLI_TESTS) tests/cli/explain-common.sh \
	tests/explain/corpus.txt
