# Tests of the ld.so.cache reader (src/loader/ldcache.c).
# ldcache-dump lists a cache the way `ldconfig -p` does, looks names up and
# fuzzes the parser; the shell tests hold it against ldconfig on this
# machine's cache and on caches ldconfig builds in fixture trees, against
# the real loader in a chroot, against old-format caches written by
# tests/lib/mkldcache.py, and against damaged copies of all of them.

check_PROGRAMS += tests/tools/ldcache-dump tests/unit/test_ldcache
tests_tools_ldcache_dump_SOURCES = tests/tools/ldcache-dump.c
tests_tools_ldcache_dump_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_tools_ldcache_dump_LDADD = $(UNIT_LDADD)
tests_unit_test_ldcache_SOURCES = tests/unit/test_ldcache.c
tests_unit_test_ldcache_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_ldcache_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/test_ldcache

LDCACHE_CLI_TESTS = \
	tests/cli/ldcache-host.sh \
	tests/cli/ldcache-ldconfig.sh \
	tests/cli/ldcache-loader.sh \
	tests/cli/ldcache-formats.sh \
	tests/cli/ldcache-damage.sh
TESTS += $(LDCACHE_CLI_TESTS)
EXTRA_DIST += $(LDCACHE_CLI_TESTS) tests/lib/mkldcache.py tests/lib/fx_ldcache.sh
