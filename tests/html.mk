# Issue 21, point 4: the HTML report (--format html). The cheap checks
# run in the plain suite; the Chromium test is in the packages gate.
HTML_TESTS = tests/cli/html-report.sh
TESTS += $(HTML_TESTS)
EXTRA_DIST += $(HTML_TESTS) tests/lib/htmlcheck.py tests/lib/fx_html.sh
