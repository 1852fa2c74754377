# The fix lint (issue 18): tests/tools/fixlint checks the commands of a
# doctor/explain document against the catalogue; tests/cli/fix-lint.sh
# runs it over every fixture tree and explain message of the CLI tests.

check_PROGRAMS += tests/tools/fixlint
tests_tools_fixlint_SOURCES = tests/tools/fixlint.c
tests_tools_fixlint_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_tools_fixlint_LDADD = $(UNIT_LDADD)
# Every fixture test leaves its doctor/explain documents under
# FX_LINT_DIR (tests/lib/fixture.sh); fix-lint.sh lints them and replays
# the tests that have not left theirs yet.
AM_TESTS_ENVIRONMENT += \
	FIXLINT='$(abs_top_builddir)/tests/tools/fixlint'; export FIXLINT; \
	FX_LINT_DIR='$(abs_top_builddir)/tests/fixlint-docs'; export FX_LINT_DIR;

clean-local: clean-fixlint-docs
clean-fixlint-docs:
	-rm -rf tests/fixlint-docs
.PHONY: clean-fixlint-docs

FIXLINT_TESTS = tests/cli/fix-lint.sh tests/cli/fix-published.sh
TESTS += $(FIXLINT_TESTS)
EXTRA_DIST += $(FIXLINT_TESTS)

# The lint reads what every other test left, so it runs after them all
# (else, under make -j, it would replay the tests still running).
.SECONDEXPANSION:
tests/cli/fix-lint.log: $$(filter-out tests/cli/fix-lint.log,$$(TEST_LOGS))
