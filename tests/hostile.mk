# Hostile trees (issue 9): fixture trees built to break the probes — 100,000
# files in one directory, link loops and links to /, a 1 GB sparse library,
# 10,000 LD_LIBRARY_PATH entries, unreadable directories, names that are not
# text, FIFOs where files are read, a DT_NEEDED cycle. Each run must end in
# bounded time and memory with a normal exit status, valid JSON and a note
# saying what was skipped.

HOSTILE_TESTS = \
	tests/cli/hostile-manyfiles.sh \
	tests/cli/hostile-ldpath.sh \
	tests/cli/hostile-links.sh \
	tests/cli/hostile-sparse.sh \
	tests/cli/hostile-fifo.sh \
	tests/cli/hostile-unreadable.sh \
	tests/cli/hostile-names.sh \
	tests/cli/hostile-needed-cycle.sh
TESTS += $(HOSTILE_TESTS)
EXTRA_DIST += $(HOSTILE_TESTS) tests/lib/fx_hostile.sh tests/lib/manyfiles.py
