# Tests of the fatbinary reader (src/loader/fatbin.c, issue 5).
# fatbin-list prints what the reader says, makes synthetic fatbinary ELF
# files for machines without nvcc, and drives the damage tests.

check_PROGRAMS += tests/tools/fatbin-list
tests_tools_fatbin_list_SOURCES = tests/tools/fatbin-list.c
tests_tools_fatbin_list_CPPFLAGS = $(UNIT_CPPFLAGS) $(LIBELF_CFLAGS)
tests_tools_fatbin_list_LDADD = $(UNIT_LDADD)

FATBIN_CLI_TESTS = \
	tests/cli/fatbin-synthetic.sh \
	tests/cli/fatbin-damage.sh \
	tests/cli/fatbin-speed.sh \
	tests/cli/fatbin-nvcc.sh \
	tests/cli/fatbin-toolkit.sh
TESTS += $(FATBIN_CLI_TESTS)
EXTRA_DIST += $(FATBIN_CLI_TESTS)
