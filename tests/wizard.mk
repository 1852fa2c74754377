# Tests of the wizard (issue 8): golden screens rendered by
# tests/tools/wizard-render (the wizard's own loop on a grid, keys from a
# file) on fixture trees, and the entry point off a terminal.

check_PROGRAMS += tests/tools/wizard-render
tests_tools_wizard_render_SOURCES = tests/tools/wizard-render.c
tests_tools_wizard_render_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_tools_wizard_render_LDADD = $(WIZARD_LIBS) $(UNIT_LDADD)
# The fact pages' label column and the findings that name a fact.
check_PROGRAMS += tests/unit/test_pagefacts
tests_unit_test_pagefacts_SOURCES = tests/unit/test_pagefacts.c
tests_unit_test_pagefacts_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_pagefacts_LDADD = $(WIZARD_LIBS) $(UNIT_LDADD)
TESTS += tests/unit/test_pagefacts
AM_TESTS_ENVIRONMENT += \
	WIZARD_RENDER='$(abs_top_builddir)/tests/tools/wizard-render'; \
	export WIZARD_RENDER;

# The Summary, Diagnosis rows, the detail's keys, combined installs.
check_PROGRAMS += tests/unit/test_wizard_answer
tests_unit_test_wizard_answer_SOURCES = tests/unit/test_wizard_answer.c
tests_unit_test_wizard_answer_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_wizard_answer_LDADD = $(WIZARD_LIBS) $(UNIT_LDADD)
TESTS += tests/unit/test_wizard_answer
# The key map, search and layouts driven through wizard_key on an empty
# tree's report (issue 20).
check_PROGRAMS += tests/unit/test_wizard_keys
tests_unit_test_wizard_keys_SOURCES = tests/unit/test_wizard_keys.c
tests_unit_test_wizard_keys_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_wizard_keys_LDADD = $(WIZARD_LIBS) $(UNIT_LDADD)
TESTS += tests/unit/test_wizard_keys
# The Fix page's parts that need no screen: the line editor, the text
# left on the normal screen.
check_PROGRAMS += tests/unit/test_lineedit tests/unit/test_wfix
tests_unit_test_lineedit_SOURCES = tests/unit/test_lineedit.c
tests_unit_test_lineedit_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_lineedit_LDADD = $(WIZARD_LIBS) $(UNIT_LDADD)
tests_unit_test_wfix_SOURCES = tests/unit/test_wfix.c
tests_unit_test_wfix_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_wfix_LDADD = $(WIZARD_LIBS) $(UNIT_LDADD)
TESTS += tests/unit/test_lineedit tests/unit/test_wfix

WIZARD_TESTS = \
	tests/cli/wizard-golden.sh \
	tests/cli/wizard-entry.sh \
	tests/cli/wizard-tmux.sh \
	tests/cli/wizard-verify.sh \
	tests/cli/wizard-update.sh
TESTS += $(WIZARD_TESTS)
EXTRA_DIST += $(WIZARD_TESTS) \
	tests/wizard/walk.keys \
	tests/wizard/answer.keys \
	tests/wizard/answer-healthy.keys \
	tests/wizard/answer-wide.keys \
	tests/wizard/golden/answer.txt \
	tests/wizard/golden/verify-failed.txt \
	tests/wizard/golden/broken-wide-click.txt \
	tests/wizard/golden/answer-healthy.txt \
	tests/wizard/golden/answer-wide.txt \
	tests/wizard/diagnosis.keys \
	tests/wizard/resize.keys \
	tests/wizard/keys.keys \
	tests/wizard/search.keys \
	tests/wizard/compact.keys \
	tests/wizard/compact-pages.keys \
	tests/wizard/wide.keys \
	tests/wizard/wide-click.keys \
	tests/wizard/fix.keys \
	tests/wizard/fix-check.keys \
	tests/wizard/fix-dash.keys \
	tests/wizard/fix-replace.keys \
	tests/wizard/fix-for.keys \
	tests/wizard/fix-host.keys \
	tests/wizard/verify-run.keys \
	tests/wizard/verify-fail.keys \
	tests/wizard/nodriver.helper \
	tests/wizard/verify-cancel.keys \
	tests/wizard/verify-intr.keys \
	tests/wizard/verify-resize.keys \
	tests/wizard/update-run.keys \
	tests/wizard/update-cancel.keys \
	tests/wizard/update-intr.keys \
	tests/wizard/update-offline.keys \
	tests/wizard/facts.keys \
	tests/wizard/golden/healthy-walk.txt \
	tests/wizard/golden/broken-walk.txt \
	tests/wizard/golden/broken-diagnosis.txt \
	tests/wizard/golden/broken-ascii.txt \
	tests/wizard/golden/resize.txt \
	tests/wizard/golden/broken-keys.txt \
	tests/wizard/golden/broken-search.txt \
	tests/wizard/golden/broken-compact.txt \
	tests/wizard/golden/broken-compact-pages.txt \
	tests/wizard/golden/broken-wide.txt \
	tests/wizard/golden/broken-fix.txt \
	tests/wizard/golden/broken-fix-check.txt \
	tests/wizard/golden/broken-fix-replace.txt \
	tests/wizard/golden/broken-fix-readline.txt \
	tests/wizard/golden/broken-fix-for.txt \
	tests/wizard/golden/words-de.txt \
	tests/wizard/golden/words-zh_CN.txt
# The Windows guided mode's pages (src/winguide/), pure, read on Linux;
# linked with the wizard to hold its pages to the wizard's.
check_PROGRAMS += tests/unit/test_winguide
tests_unit_test_winguide_SOURCES = tests/unit/test_winguide.c tests/lib/winfx.c tests/lib/winfx.h
tests_unit_test_winguide_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_winguide_LDADD = $(WIZARD_LIBS) $(UNIT_LDADD)
TESTS += tests/unit/test_winguide
