# Issue 17, point 1: one pipeline (src/run/) for every command and the
# wizard. Each test pins a bug the separate copies of the pipeline had.
RUN_TESTS = \
	tests/cli/run-matrix-file.sh \
	tests/cli/run-matrix-stale.sh \
	tests/cli/run-matrix-note.sh \
	tests/cli/run-ldso-once.sh
TESTS += $(RUN_TESTS)
EXTRA_DIST += $(RUN_TESTS)
