# Issue 16 (hardening, round two): the matrix regression tests.
# matrix-embed: the build-time generator of the built-in matrix refuses a
# bad document and keeps awkward text exact (tests/unit/test_matrix checks
# the built-in rows against data/matrix.json; test_matrix_schema, out of
# memory inside jansson).
HARDEN_MATRIX_TESTS = tests/cli/matrix-embed.sh
TESTS += $(HARDEN_MATRIX_TESTS)
EXTRA_DIST += $(HARDEN_MATRIX_TESTS)
