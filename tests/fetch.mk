# Build pieces and tests of the fetch layer (moved into Makefile.am once settled).

# The cache, NVIDIA's manifests and the choice of matrix hold no curl, so
# they join the core. (matrix.mk defines the core's sources first.)
libcudawiz_core_a_SOURCES += \
	src/matrix/cache.c src/matrix/cache.h \
	src/matrix/redistrib.c src/matrix/redistrib.h \
	src/matrix/select.c src/matrix/select.h

# libcurl's users: fetch.c and the command that drives it. They stay out of
# libcudawiz-core.a, which tests/unit/core-walls.sh checks.
noinst_LIBRARIES += libcudawiz-fetch.a
libcudawiz_fetch_a_CPPFLAGS = $(AM_CPPFLAGS) $(LIBCURL_CFLAGS) $(JANSSON_CFLAGS)
libcudawiz_fetch_a_SOURCES = \
	src/matrix/fetch.c src/matrix/fetch.h \
	src/matrix/update.c src/matrix/update.h \
	src/cmd_matrix.c
# libcurl itself is dlopen()ed by fetch.c when a download starts.
FETCH_LIBS = libcudawiz-fetch.a $(CORE_LIBS) $(DLOPEN_LIBS)
cudawiz_LDADD += $(FETCH_LIBS)

check_PROGRAMS += tests/unit/test_redistrib tests/unit/test_fetch
tests_unit_test_redistrib_SOURCES = tests/unit/test_redistrib.c
tests_unit_test_redistrib_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_redistrib_LDADD = $(UNIT_LDADD)
# Run by tests/cli/matrix-fetch-api.sh, which starts its server.
tests_unit_test_fetch_SOURCES = tests/unit/test_fetch.c
tests_unit_test_fetch_CPPFLAGS = $(UNIT_CPPFLAGS) $(LIBCURL_CFLAGS)
tests_unit_test_fetch_LDADD = $(FETCH_LIBS)

MATRIX_CLI_TESTS = \
	tests/cli/matrix-show.sh \
	tests/cli/matrix-fetch.sh \
	tests/cli/matrix-tls.sh \
	tests/cli/matrix-redist.sh \
	tests/cli/matrix-fetch-api.sh
TESTS += tests/unit/test_redistrib $(MATRIX_CLI_TESTS)
EXTRA_DIST += $(MATRIX_CLI_TESTS) tests/lib/httpd.py tests/lib/httpd.sh
