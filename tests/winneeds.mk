# Issue 23's Windows diagnosis: each framework's DLLs resolved as it loads
# them (src/winprobe/winneeds.c) over fixture drives, and the findings of
# the Windows rules (src/diagnose/rules_windows.c) drawn from them.

check_PROGRAMS += tests/unit/test_winneeds
tests_unit_test_winneeds_SOURCES = tests/unit/test_winneeds.c tests/lib/winfx.c tests/lib/winfx.h
tests_unit_test_winneeds_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_winneeds_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/test_winneeds

# winneeds-wine.sh: the same needs against Wine's loader, python.exe being
# tests/win/dllprobe.c built by mingw-w64 (skips without mingw-w64/Wine).
TESTS += tests/cli/winneeds-wine.sh
EXTRA_DIST += tests/cli/winneeds-wine.sh
