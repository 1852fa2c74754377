# The Windows facts in the shared model (src/winprobe/winbridge.c): a
# struct win_facts built in memory, bridged, annotated with the embedded
# matrix and made a spec.

check_PROGRAMS += tests/unit/test_winbridge
tests_unit_test_winbridge_SOURCES = tests/unit/test_winbridge.c
tests_unit_test_winbridge_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_winbridge_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/test_winbridge
