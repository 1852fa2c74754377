# Tests of the PE/COFF reader (src/pe/pe.c): hand-built images and their
# damaged copies in test_pe; real DLLs built with mingw-w64 against
# objdump -p in pe-mingw.sh, and Wine's DLLs in pe-wine.sh, through pe-dump, which prints what the
# reader says.

check_PROGRAMS += tests/unit/test_pe tests/tools/pe-dump
tests_unit_test_pe_SOURCES = tests/unit/test_pe.c tests/lib/winfx.c tests/lib/winfx.h
tests_unit_test_pe_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_pe_LDADD = $(UNIT_LDADD)
tests_tools_pe_dump_SOURCES = tests/tools/pe-dump.c
tests_tools_pe_dump_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_tools_pe_dump_LDADD = $(UNIT_LDADD)

TESTS += tests/unit/test_pe tests/cli/pe-mingw.sh tests/cli/pe-wine.sh
EXTRA_DIST += tests/cli/pe-mingw.sh tests/cli/pe-wine.sh tests/lib/fx_pe.sh
