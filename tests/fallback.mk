# Issue 21's fallbacks, for a machine with nothing installed: the
# built-in pci.ids table, the built-in terminal descriptions (the wizard
# under tmux with the terminfo databases hidden) and --version's commit
# and matrix date.
FALLBACK_CLI_TESTS = \
	tests/cli/pciids-builtin.sh \
	tests/cli/wizard-terminfo.sh \
	tests/cli/version-commit.sh
TESTS += $(FALLBACK_CLI_TESTS)
EXTRA_DIST += $(FALLBACK_CLI_TESTS) tests/lib/tmux.sh
