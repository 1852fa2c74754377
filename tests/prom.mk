# Issue 22, point 1: the Prometheus metrics (doctor --format prometheus),
# doctor -o's atomic replacement and the systemd units that refresh the
# textfile. Cheap (promtool and systemd-analyze, no daemon): plain suite.
PROM_TESTS = tests/cli/prom-metrics.sh tests/cli/prom-atomic.sh \
	tests/cli/prom-systemd.sh
TESTS += $(PROM_TESTS)
EXTRA_DIST += $(PROM_TESTS)

check_PROGRAMS += tests/unit/test_prom
tests_unit_test_prom_SOURCES = tests/unit/test_prom.c
tests_unit_test_prom_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_prom_LDADD = libcudawiz-present.a $(UNIT_LDADD)
TESTS += tests/unit/test_prom
