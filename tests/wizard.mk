# Tests of the wizard (issue 8): golden screens rendered by
# tests/tools/wizard-render (the wizard's own loop on a grid, keys from a
# file) on fixture trees, and the entry point off a terminal.

check_PROGRAMS += tests/tools/wizard-render
tests_tools_wizard_render_SOURCES = tests/tools/wizard-render.c
tests_tools_wizard_render_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_tools_wizard_render_LDADD = $(WIZARD_LIBS) $(UNIT_LDADD)
AM_TESTS_ENVIRONMENT += \
	WIZARD_RENDER='$(abs_top_builddir)/tests/tools/wizard-render'; \
	export WIZARD_RENDER;

WIZARD_TESTS = \
	tests/cli/wizard-golden.sh \
	tests/cli/wizard-entry.sh \
	tests/cli/wizard-tmux.sh \
	tests/cli/wizard-verify.sh \
	tests/cli/wizard-update.sh
TESTS += $(WIZARD_TESTS)
EXTRA_DIST += $(WIZARD_TESTS) \
	tests/wizard/walk.keys \
	tests/wizard/diagnosis.keys \
	tests/wizard/resize.keys \
	tests/wizard/fix.keys \
	tests/wizard/fix-check.keys \
	tests/wizard/verify-run.keys \
	tests/wizard/verify-cancel.keys \
	tests/wizard/verify-intr.keys \
	tests/wizard/update-run.keys \
	tests/wizard/update-cancel.keys \
	tests/wizard/update-intr.keys \
	tests/wizard/update-offline.keys \
	tests/wizard/golden/healthy-walk.txt \
	tests/wizard/golden/broken-walk.txt \
	tests/wizard/golden/broken-diagnosis.txt \
	tests/wizard/golden/broken-ascii.txt \
	tests/wizard/golden/resize.txt \
	tests/wizard/golden/broken-fix.txt
