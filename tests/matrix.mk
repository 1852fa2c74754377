# Build pieces and tests of the matrix layer (moved into Makefile.am once settled).

libcudawiz_core_a_SOURCES += \
	src/matrix/matrix.c src/matrix/matrix.h \
	src/matrix/query.c src/matrix/internal.h
# Makefile.am defines neither of these yet, so automake wants "=" here;
# fragments included later (fetch.mk) must use "+=".
nodist_libcudawiz_core_a_SOURCES = src/matrix/embedded.c

# The embedded default is generated into the build tree, so a read-only
# source tree (make distcheck) builds too. `make MATRIX_JSON=FILE` embeds
# another document, for trying a draft without touching data/.
MATRIX_JSON = $(srcdir)/data/matrix.json
src/matrix/embedded.c: $(MATRIX_JSON) $(srcdir)/data/embed.sh
	$(AM_V_GEN)$(MKDIR_P) src/matrix && \
	$(SHELL) $(srcdir)/data/embed.sh $(MATRIX_JSON) > $@-t && mv -f $@-t $@
BUILT_SOURCES = src/matrix/embedded.c
CLEANFILES += src/matrix/embedded.c src/matrix/embedded.c-t
EXTRA_DIST += data/matrix.json data/embed.sh data/SCHEMA.md

check_PROGRAMS += tests/unit/test_matrix tests/unit/test_matrix_schema
tests_unit_test_matrix_SOURCES = tests/unit/test_matrix.c
tests_unit_test_matrix_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_matrix_LDADD = $(UNIT_LDADD)
tests_unit_test_matrix_schema_SOURCES = tests/unit/test_matrix_schema.c
tests_unit_test_matrix_schema_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_matrix_schema_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/test_matrix tests/unit/test_matrix_schema

# Not a test: `make check` builds it, a person runs it (bench/RESULTS.md).
check_PROGRAMS += bench/matrix-load
bench_matrix_load_SOURCES = bench/matrix-load.c
bench_matrix_load_LDADD = $(UNIT_LDADD)
