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
#
# mkembedded reads it with the matrix's own parser and checker and writes
# the parsed rows as C initialisers, so no run parses JSON for the built-in
# matrix; a document it refuses fails the build with the parser's message.
# It is built from the sources (libcudawiz-core.a holds its output) and
# runs on the build machine: a cross build names one built for that
# machine with `make MKEMBEDDED=PATH`.
MATRIX_JSON = $(srcdir)/data/matrix.json
noinst_PROGRAMS = src/matrix/mkembedded
src_matrix_mkembedded_SOURCES = src/matrix/mkembedded.c \
	src/matrix/matrix.c src/matrix/query.c \
	src/util/xalloc.c src/util/strbuf.c src/util/strv.c src/util/version.c
src_matrix_mkembedded_CPPFLAGS = $(AM_CPPFLAGS) $(JANSSON_CFLAGS) -DCUDAWIZ_MKEMBEDDED
src_matrix_mkembedded_LDADD = $(LIBOBJS) $(JANSSON_LIBS) $(LIBINTL)
MKEMBEDDED = src/matrix/mkembedded$(EXEEXT)
src/matrix/embedded.c: $(MATRIX_JSON) $(MKEMBEDDED)
	$(AM_V_GEN)$(MKDIR_P) src/matrix && \
	if $(MKEMBEDDED) $(MATRIX_JSON) > $@-t; then mv -f $@-t $@; else \
	  rm -f $@-t; \
	  echo "error: the built-in matrix could not be generated from $(MATRIX_JSON) (why: above; cross builds: make MKEMBEDDED=PATH)" >&2; \
	  exit 1; \
	fi
BUILT_SOURCES = src/matrix/embedded.c
CLEANFILES += src/matrix/embedded.c src/matrix/embedded.c-t
EXTRA_DIST += data/matrix.json data/SCHEMA.md

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

# Not a test: `make check` builds it, a person runs it (bench/RESULTS.md).
check_PROGRAMS += bench/matrix-load
bench_matrix_load_SOURCES = bench/matrix-load.c
bench_matrix_load_LDADD = $(UNIT_LDADD)
