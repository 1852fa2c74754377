# Issue 21, point 4: the HTML report (--format html). The cheap checks
# run in the plain suite; the Chromium test is in the packages gate.
HTML_TESTS = tests/cli/html-report.sh
TESTS += $(HTML_TESTS)
EXTRA_DIST += $(HTML_TESTS) tests/lib/htmlcheck.py tests/lib/fx_html.sh

# The memory stream the page is captured in (util/memstream.h), and
# atomic_out over it.
check_PROGRAMS += tests/unit/test_memstream
tests_unit_test_memstream_SOURCES = tests/unit/test_memstream.c
tests_unit_test_memstream_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_memstream_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/test_memstream
