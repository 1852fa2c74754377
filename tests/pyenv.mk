# pyenv tests (issue 5): finding Python environments, listing their
# packages, and the Python part of the text and JSON reports.

check_PROGRAMS += tests/unit/test_pypresent
tests_unit_test_pypresent_SOURCES = tests/unit/test_pypresent.c
tests_unit_test_pypresent_CPPFLAGS = $(UNIT_CPPFLAGS) $(JANSSON_CFLAGS)
tests_unit_test_pypresent_LDADD = libcudawiz-present.a $(UNIT_LDADD)

PYENV_CLI_TESTS = \
	tests/cli/pyenv-discovery.sh \
	tests/cli/pyenv-packages.sh \
	tests/cli/pyenv-bad.sh \
	tests/cli/pyenv-text.sh \
	tests/cli/pyenv-conda-home.sh
TESTS += tests/unit/test_pypresent $(PYENV_CLI_TESTS)
EXTRA_DIST += $(PYENV_CLI_TESTS) tests/lib/fx_python.sh

# conda build strings and depends pins (issue 19, point 4).
check_PROGRAMS += tests/unit/test_condabuild
tests_unit_test_condabuild_SOURCES = tests/unit/test_condabuild.c
tests_unit_test_condabuild_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_condabuild_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/test_condabuild
