# Issue 16 (hardening, round two): the trust regression tests.
# Live checks load only what the user would load anyway (docs/VERIFY.md,
# "What is loaded"): the ownership walk, and a .venv in the current
# directory whose libcudart's constructor must never run uninvited.
check_PROGRAMS += tests/unit/test_trustpath
tests_unit_test_trustpath_SOURCES = tests/unit/test_trustpath.c
tests_unit_test_trustpath_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_trustpath_LDADD = $(UNIT_LDADD)
HARDEN_TRUST_TESTS = \
	tests/unit/test_trustpath \
	tests/cli/verify-trust.sh
TESTS += $(HARDEN_TRUST_TESTS)
EXTRA_DIST += tests/cli/verify-trust.sh
