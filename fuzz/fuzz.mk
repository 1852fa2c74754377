# Fuzz targets (issue 9). Each fuzz/fz_NAME.c defines LLVMFuzzerTestOneInput
# for one parser and is built two ways:
#  - fuzz/replay-NAME (with fuzz/replay.c): make check replays the corpus
#    fuzz/corpus/NAME/ through it (tests/cli/fuzz-replay.sh), with gcc and
#    under ASan + UBSan, so no clang is needed to keep old crashes fixed;
#  - fuzz/fz-NAME with clang's libFuzzer: `make fuzz` (fuzz/run.sh) builds
#    the core in fuzz-build/ with coverage and sanitizers and runs each
#    target FUZZ_TIME seconds (FUZZ_TARGETS='a b' picks some).
# A target joins by adding its name to FUZZ_TARGETS and its replay program
# below; fuzz-replay.sh fails when a target, a corpus or a source is missing.

FUZZ_TARGETS =
FUZZ_TIME = 60
FUZZ_COMMON = fuzz/fuzz.c fuzz/fuzz.h
FUZZ_REPLAY = fuzz/replay.c $(FUZZ_COMMON)
FUZZ_CPPFLAGS = $(UNIT_CPPFLAGS) -I$(top_srcdir)/fuzz $(LIBELF_CFLAGS) $(JANSSON_CFLAGS)
FUZZ_LDADD = $(UNIT_LDADD)
# Libraries some targets need besides the core (a fragment adds to it):
# linked ahead of it into every fz-NAME, where unused members cost nothing.
FUZZ_EXTRA_LIBS =

AM_TESTS_ENVIRONMENT += \
	FUZZ_TARGETS='$(FUZZ_TARGETS)'; export FUZZ_TARGETS; \
	FUZZ_BUILDDIR='$(abs_top_builddir)/fuzz'; export FUZZ_BUILDDIR; \
	FUZZ_SRCDIR='$(abs_top_srcdir)/fuzz'; export FUZZ_SRCDIR;

TESTS += tests/cli/fuzz-replay.sh
EXTRA_DIST += tests/cli/fuzz-replay.sh fuzz/run.sh fuzz/corpus fuzz/README.md

# ------------------------------------------------------------ the targets
FUZZ_TARGETS += version
check_PROGRAMS += fuzz/replay-version
fuzz_replay_version_SOURCES = fuzz/fz_version.c $(FUZZ_REPLAY)
fuzz_replay_version_CPPFLAGS = $(FUZZ_CPPFLAGS)
fuzz_replay_version_LDADD = $(FUZZ_LDADD)

FUZZ_TARGETS += safeout
check_PROGRAMS += fuzz/replay-safeout
fuzz_replay_safeout_SOURCES = fuzz/fz_safeout.c $(FUZZ_REPLAY)
fuzz_replay_safeout_CPPFLAGS = $(FUZZ_CPPFLAGS)
fuzz_replay_safeout_LDADD = $(FUZZ_LDADD)

include $(top_srcdir)/fuzz/formats.mk
include $(top_srcdir)/fuzz/probes.mk

# ------------------------------------------------------------ make fuzz
# fuzz-binaries is what run.sh asks of the clang build in fuzz-build/: the
# same sources, linked with -fsanitize=fuzzer instead of replay.c.
fuzz-binaries: libcudawiz-core.a $(FUZZ_EXTRA_LIBS)
	@$(MKDIR_P) fuzz; for t in $(FUZZ_TARGETS); do \
	    echo "  CCLD     fuzz/fz-$$t"; \
	    $(CC) $(DEFS) $(DEFAULT_INCLUDES) $(FUZZ_CPPFLAGS) $(CPPFLAGS) \
	        $(CFLAGS) -fsanitize=fuzzer \
	        $(top_srcdir)/fuzz/fz_$$t.c $(top_srcdir)/fuzz/fuzz.c \
	        -o fuzz/fz-$$t $(LDFLAGS) $(FUZZ_EXTRA_LIBS) $(FUZZ_LDADD) \
	        $(LIBS) || exit 1; \
	done

fuzz:
	$(SHELL) $(top_srcdir)/fuzz/run.sh '$(abs_top_srcdir)' \
	    '$(abs_top_builddir)/fuzz-build' '$(FUZZ_TIME)' $(FUZZ_TARGETS)

clean-local: clean-fuzz-build
clean-fuzz-build:
	-rm -rf fuzz-build
.PHONY: fuzz fuzz-binaries clean-fuzz-build
