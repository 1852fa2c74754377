# framework tests (issue 5): the frameworks of each Python environment,
# what they need from the loader and what they get (src/probe/framework.c,
# fwident.c, fwneeds.c), on fixture trees of real ELF files.

FRAMEWORK_CLI_TESTS = \
	tests/cli/framework-torch.sh \
	tests/cli/framework-tensorflow.sh \
	tests/cli/framework-spacy.sh \
	tests/cli/framework-others.sh \
	tests/cli/framework-mixed.sh \
	tests/cli/framework-archs.sh \
	tests/cli/framework-archs-matrix.sh \
	tests/cli/framework-checks.sh \
	tests/cli/framework-healthy.sh \
	tests/cli/framework-badinput.sh \
	tests/cli/framework-findings.sh \
	tests/cli/findings-subject.sh
TESTS += $(FRAMEWORK_CLI_TESTS)
EXTRA_DIST += $(FRAMEWORK_CLI_TESTS) tests/lib/fx_framework.sh
