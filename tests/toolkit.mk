# Tests of the toolkit probes and rules.

TOOLKIT_TESTS = \
	tests/cli/toolkit-basic.sh \
	tests/cli/toolkit-found-via.sh \
	tests/cli/toolkit-pip.sh \
	tests/cli/toolkit-bad.sh \
	tests/cli/cudnn-basic.sh \
	tests/cli/real-cuda.sh \
	tests/cli/toolkit-extension.sh \
	tests/cli/toolkit-facts-once.sh
TESTS += $(TOOLKIT_TESTS)
EXTRA_DIST += $(TOOLKIT_TESTS) tests/lib/fx_toolkit.sh
