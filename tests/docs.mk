# The man page and the shell completions (issue 8): they render, they name
# every command and option `cudawiz --help` prints, and the shells complete
# with them. docs-common.sh is sourced by the others.
DOCS_TESTS = tests/cli/docs-man.sh tests/cli/docs-completion.sh \
	tests/cli/docs-shells.sh
TESTS += $(DOCS_TESTS)
EXTRA_DIST += $(DOCS_TESTS) tests/cli/docs-common.sh
# The man page test reads the built page.
$(DOCS_TESTS:.sh=.log): man/cudawiz.1
# README's example alert rule (contrib/prometheus/), with promtool.
TESTS += tests/cli/docs-alert-rule.sh
EXTRA_DIST += tests/cli/docs-alert-rule.sh
