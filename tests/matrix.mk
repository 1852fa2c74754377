# Tests of the matrix layer (its build pieces: src/matrix/matrix.mk).

check_PROGRAMS += tests/unit/test_matrix tests/unit/test_matrix_schema
tests_unit_test_matrix_SOURCES = tests/unit/test_matrix.c
# The document embedded, as make names it (relative to the top build
# directory unless absolute), for comparing the built-in rows with it.
tests_unit_test_matrix_CPPFLAGS = $(UNIT_CPPFLAGS) \
	-DMATRIX_JSON_FILE='"$(MATRIX_JSON)"' -DTOP_BUILDDIR='"$(abs_top_builddir)"'
tests_unit_test_matrix_LDADD = $(UNIT_LDADD)
tests_unit_test_matrix_schema_SOURCES = tests/unit/test_matrix_schema.c
tests_unit_test_matrix_schema_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_matrix_schema_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/test_matrix tests/unit/test_matrix_schema

# Issue 18: the catalogue of what is published (published[]): its
# questions, and the built-in rows' naming and facts.
check_PROGRAMS += tests/unit/test_matrix_published
tests_unit_test_matrix_published_SOURCES = tests/unit/test_matrix_published.c
tests_unit_test_matrix_published_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_matrix_published_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/test_matrix_published
# Schema 1's forward compatibility, through the CLI: a newer cache loads,
# an older one too, bad new fields are refused with their path.
TESTS += tests/cli/matrix-forward.sh
EXTRA_DIST += tests/cli/matrix-forward.sh

# Not a test: `make check` builds it, a person runs it (bench/RESULTS.md).
check_PROGRAMS += bench/matrix-load
bench_matrix_load_SOURCES = bench/matrix-load.c
bench_matrix_load_LDADD = $(UNIT_LDADD)
