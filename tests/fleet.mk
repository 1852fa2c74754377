# Issue 22: cudawiz fleet (src/fleet/, src/cmd_fleet.c, the fleet views).
TESTS += tests/cli/fleet-report.sh tests/cli/fleet-damaged.sh
EXTRA_DIST += tests/cli/fleet-report.sh tests/cli/fleet-damaged.sh \
	tests/lib/fleet.sh
check_PROGRAMS += tests/unit/test_skim
tests_unit_test_skim_SOURCES = tests/unit/test_skim.c
tests_unit_test_skim_CPPFLAGS = $(UNIT_CPPFLAGS) $(JANSSON_CFLAGS)
tests_unit_test_skim_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/test_skim
# Not a test: a person runs it (bench/README.md, bench/RESULTS.md).
EXTRA_DIST += bench/fleet.sh bench/gen-fleet.py
