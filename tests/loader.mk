# Tests of the loader profile, the resolver and `cudawiz why`.
TESTS += tests/cli/why-basic.sh
EXTRA_DIST += tests/cli/why-basic.sh

# Not a test: `make check` builds it, bench/why.sh runs it.
check_PROGRAMS += bench/why-resolve
bench_why_resolve_SOURCES = bench/why-resolve.c
bench_why_resolve_CPPFLAGS = $(UNIT_CPPFLAGS)
bench_why_resolve_LDADD = $(UNIT_LDADD)
EXTRA_DIST += bench/why.sh
