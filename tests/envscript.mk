# Tests of the activation script writers (issue 7, src/envscript/): every
# format sourced in its real shell or module system where installed,
# hostile paths, the file writing, conda, --install-rc.

check_PROGRAMS += tests/tools/envscript-render
tests_tools_envscript_render_SOURCES = tests/tools/envscript-render.c
tests_tools_envscript_render_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_tools_envscript_render_LDADD = $(UNIT_LDADD)
AM_TESTS_ENVIRONMENT += \
	ENVSCRIPT_RENDER='$(abs_top_builddir)/tests/tools/envscript-render'; \
	export ENVSCRIPT_RENDER;

ENVSCRIPT_TESTS = \
	tests/cli/envscript-sh.sh \
	tests/cli/envscript-write.sh \
	tests/cli/envscript-fish.sh \
	tests/cli/envscript-csh.sh \
	tests/cli/envscript-modules.sh \
	tests/cli/envscript-pwsh.sh \
	tests/cli/envscript-cmd.sh
TESTS += $(ENVSCRIPT_TESTS)
EXTRA_DIST += $(ENVSCRIPT_TESTS) tests/cli/envscript-common.sh

# The Windows plan (src/envplan/winplan.c) over hand-built Windows facts.
check_PROGRAMS += tests/unit/test_winplan
tests_unit_test_winplan_SOURCES = tests/unit/test_winplan.c
tests_unit_test_winplan_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_winplan_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/test_winplan
