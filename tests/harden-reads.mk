# Issue 16 (hardening, round two): the reads regression tests.

HARDEN_READS_TESTS = \
	tests/cli/driver-loaded-noproc.sh \
	tests/cli/elf-truncate-race.sh \
	tests/cli/elf-nomem.sh \
	tests/cli/fatbin-truncate.sh \
	tests/cli/matrix-cache-home.sh \
	tests/cli/pyenv-conda-reads.sh
TESTS += $(HARDEN_READS_TESTS)
EXTRA_DIST += $(HARDEN_READS_TESTS)

# elfobj-seam: elfobj_read() with the file cut short or changing after it
# was mapped, or with libelf's memory running out.
check_PROGRAMS += tests/tools/elfobj-seam
tests_tools_elfobj_seam_SOURCES = tests/tools/elfobj-seam.c
tests_tools_elfobj_seam_CPPFLAGS = $(UNIT_CPPFLAGS) $(LIBELF_CFLAGS)
tests_tools_elfobj_seam_LDADD = $(UNIT_LDADD)

# The wizard's Done page for a script named "-x…" without "./"
# (tests/cli/wizard-golden.sh).
EXTRA_DIST += tests/wizard/fix-dash.keys
