# Tests of the Windows probe (src/winprobe/): fixture trees laid out as a
# Windows drive in test_winprobe; real DLLs with NVIDIA-like version
# resources built by mingw-w64 in winprobe-mingw.sh, read through
# winprobe-dump, which prints what the probe found.

check_PROGRAMS += tests/unit/test_winprobe tests/tools/winprobe-dump
tests_unit_test_winprobe_SOURCES = tests/unit/test_winprobe.c tests/lib/winfx.c tests/lib/winfx.h
tests_unit_test_winprobe_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_winprobe_LDADD = $(UNIT_LDADD)
tests_tools_winprobe_dump_SOURCES = tests/tools/winprobe-dump.c
tests_tools_winprobe_dump_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_tools_winprobe_dump_LDADD = $(UNIT_LDADD)

TESTS += tests/unit/test_winprobe tests/cli/winprobe-mingw.sh
EXTRA_DIST += tests/cli/winprobe-mingw.sh
