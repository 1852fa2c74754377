# The fix lint (issue 18): tests/tools/fixlint checks the commands of a
# doctor/explain document against the catalogue; tests/cli/fix-lint.sh
# runs it over every fixture tree and explain message of the CLI tests.

check_PROGRAMS += tests/tools/fixlint
tests_tools_fixlint_SOURCES = tests/tools/fixlint.c
tests_tools_fixlint_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_tools_fixlint_LDADD = $(UNIT_LDADD)
AM_TESTS_ENVIRONMENT += \
	FIXLINT='$(abs_top_builddir)/tests/tools/fixlint'; export FIXLINT;

FIXLINT_TESTS = tests/cli/fix-lint.sh tests/cli/fix-published.sh
TESTS += $(FIXLINT_TESTS)
EXTRA_DIST += $(FIXLINT_TESTS)
