# Tests of the cache, NVIDIA's manifests and the fetch layer (built by
# src/matrix/matrix.mk).

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
	tests/cli/matrix-fetch-api.sh \
	tests/cli/matrix-no-libcurl.sh
TESTS += tests/unit/test_redistrib $(MATRIX_CLI_TESTS)
EXTRA_DIST += $(MATRIX_CLI_TESTS) tests/lib/httpd.py tests/lib/httpd.sh
