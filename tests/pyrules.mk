# pyrules tests (issue 5): the findings about Python environments and
# frameworks, on facts built by hand.

check_PROGRAMS += tests/unit/test_rules_python
tests_unit_test_rules_python_SOURCES = tests/unit/test_rules_python.c
tests_unit_test_rules_python_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_rules_python_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/test_rules_python
