# The compatibility matrix: its schema, parser and queries, the cache, the
# choice among embedded, cached and --matrix documents (core), and the
# fetch layer (libcudawiz-fetch.a, the only user of libcurl).
libcudawiz_core_a_SOURCES += \
	src/matrix/matrix.c src/matrix/matrix.h \
	src/matrix/schema.c src/matrix/schema_int.h \
	src/matrix/parse.c \
	src/matrix/write.c \
	src/matrix/query.c src/matrix/internal.h \
	src/matrix/cache.c src/matrix/cache.h src/matrix/cachedir.c \
	src/matrix/redistrib.c src/matrix/redistrib.h \
	src/matrix/select.c src/matrix/select.h
nodist_libcudawiz_core_a_SOURCES += src/matrix/embedded.c

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
	src/matrix/matrix.c src/matrix/schema.c src/matrix/parse.c \
	src/matrix/write.c src/matrix/query.c \
	src/util/xalloc.c src/util/strbuf.c src/util/strv.c src/util/version.c
src_matrix_mkembedded_CPPFLAGS = $(AM_CPPFLAGS) $(JANSSON_CFLAGS) -DCUDAWIZ_MKEMBEDDED
src_matrix_mkembedded_LDADD = $(LIBOBJS) $(JANSSON_LIBS) $(LIBINTL)
# A cross build compiles the same sources once more, with the build
# machine's compiler (configure.ac's CC_FOR_BUILD), into mkembedded-build;
# src/matrix/mkembedded itself is still built, for the host, and not run.
if CROSS_COMPILING
MKEMBEDDED = src/matrix/mkembedded-build
else
MKEMBEDDED = src/matrix/mkembedded$(EXEEXT)
endif
# matrix.c checks text with the shared UTF-8 reader.
src_matrix_mkembedded_SOURCES += src/util/utf8width.c
# config.h is the host's: the build machine is taken to be a GNU/Linux one
# too (what it declares is the C library's, the same there).
src/matrix/mkembedded-build: $(src_matrix_mkembedded_SOURCES)
	$(AM_V_CCLD)$(MKDIR_P) src/matrix && srcs= && \
	for f in $(src_matrix_mkembedded_SOURCES) $(LIBOBJS:.o=.c); do \
	  case $$f in *.c) srcs="$$srcs $(srcdir)/$$f" ;; esac; \
	done && \
	$(CC_FOR_BUILD) -std=gnu11 $(CFLAGS_FOR_BUILD) $(DEFS) $(AM_CPPFLAGS) \
	  $(JANSSON_CFLAGS_FOR_BUILD) -DCUDAWIZ_MKEMBEDDED -o $@ $$srcs \
	  $(JANSSON_LIBS_FOR_BUILD)
CLEANFILES += src/matrix/mkembedded-build
# configure links the build machine's curl headers there (CW_BUILD_CURL_HEADERS).
distclean-local: distclean-build-curl
distclean-build-curl:
	-rm -rf build-curl
.PHONY: distclean-build-curl
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

# libcurl's users: fetch.c and the command that drives it. They stay out of
# libcudawiz-core.a, which tests/unit/core-walls.sh checks.
noinst_LIBRARIES += libcudawiz-fetch.a
libcudawiz_fetch_a_CPPFLAGS = $(AM_CPPFLAGS) $(LIBCURL_CFLAGS) $(JANSSON_CFLAGS)
libcudawiz_fetch_a_SOURCES = \
	src/matrix/fetch.c src/matrix/fetch.h \
	src/matrix/fetchurl.c src/matrix/fetchurl.h \
	src/matrix/update.c src/matrix/update.h \
	src/cmd_matrix.c
# libcurl itself is dlopen()ed by fetch.c when a download starts.
# cmd_matrix.c prints through libcudawiz-present.a, which follows it.
FETCH_LIBS = libcudawiz-fetch.a libcudawiz-present.a $(CORE_LIBS) $(DLOPEN_LIBS)
cudawiz_LDADD += $(FETCH_LIBS)
