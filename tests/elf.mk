# Tests of the ELF reader (src/loader/elfobj.c, src/loader/elfcheck.c).
# elfobj-dump prints what the reader says, for the shell tests to hold
# against readelf, the real loader and damaged copies.

check_PROGRAMS += tests/tools/elfobj-dump
tests_tools_elfobj_dump_SOURCES = tests/tools/elfobj-dump.c
tests_tools_elfobj_dump_CPPFLAGS = $(UNIT_CPPFLAGS) $(LIBELF_CFLAGS)
tests_tools_elfobj_dump_LDADD = $(UNIT_LDADD)

ELF_CLI_TESTS = \
	tests/cli/elf-readelf.sh \
	tests/cli/elf-fixtures.sh \
	tests/cli/elf-check.sh \
	tests/cli/elf-damage.sh
TESTS += $(ELF_CLI_TESTS)
EXTRA_DIST += $(ELF_CLI_TESTS) tests/lib/fx_elf.sh
