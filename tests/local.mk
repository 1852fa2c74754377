# The test suite: TAP everywhere, run by automake's parallel harness.
# Shell tests end in .sh; C unit tests are check_PROGRAMS. Each area keeps
# its tests in its own fragment so they can grow independently.

TAP_DRIVER = env AM_TAP_AWK='$(AWK)' $(SHELL) $(top_srcdir)/build-aux/tap-driver.sh
TEST_EXTENSIONS = .sh
LOG_DRIVER = $(TAP_DRIVER)
SH_LOG_DRIVER = $(TAP_DRIVER)
SH_LOG_COMPILER = $(SHELL)
AM_TESTS_ENVIRONMENT = \
	CUDAWIZ='$(abs_top_builddir)/cudawiz'; export CUDAWIZ; \
	CUDAWIZ_HELPER='$(abs_top_builddir)/cudawiz-verify'; export CUDAWIZ_HELPER; \
	CORE_LIB='$(abs_top_builddir)/libcudawiz-core.a'; export CORE_LIB; \
	FIXTURE_CC='$(CC)'; export FIXTURE_CC; \
	PKG_CONFIG='$(PKG_CONFIG)'; export PKG_CONFIG; \
	TESTS_SRCDIR='$(abs_top_srcdir)/tests'; export TESTS_SRCDIR; \
	FX_TMP='$(abs_top_builddir)/tests/tmp'; export FX_TMP; \
	mkdir -p "$$FX_TMP"; \
	ASAN_OPTIONS='detect_leaks=1:abort_on_error=0:exitcode=99'; export ASAN_OPTIONS; \
	UBSAN_OPTIONS='print_stacktrace=1:halt_on_error=1:exitcode=98'; export UBSAN_OPTIONS;

TESTS =
check_PROGRAMS =
EXTRA_DIST += tests/lib/tap.sh tests/lib/fixture.sh tests/lib/tap.h

UNIT_LDADD = libcudawiz-core.a $(LIBELF_LIBS) $(JANSSON_LIBS) $(LIBINTL)
UNIT_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests

check_PROGRAMS += tests/unit/test_util tests/unit/test_sysroot
tests_unit_test_util_SOURCES = tests/unit/test_util.c
tests_unit_test_util_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_util_LDADD = $(UNIT_LDADD)
tests_unit_test_sysroot_SOURCES = tests/unit/test_sysroot.c
tests_unit_test_sysroot_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_sysroot_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/test_util tests/unit/test_sysroot

check_PROGRAMS += tests/unit/test_safeout
tests_unit_test_safeout_SOURCES = tests/unit/test_safeout.c
tests_unit_test_safeout_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_safeout_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/test_safeout tests/cli/text-controls.sh tests/unit/security-doc.sh
EXTRA_DIST += tests/cli/text-controls.sh tests/unit/security-doc.sh

TESTS += tests/unit/potfiles.sh tests/unit/po-check.sh
EXTRA_DIST += tests/unit/potfiles.sh tests/unit/po-check.sh
TESTS += tests/unit/core-walls.sh tests/cli/basics.sh tests/cli/healthy.sh tests/cli/matrix-rules.sh
EXTRA_DIST += tests/unit/core-walls.sh tests/cli/basics.sh tests/cli/healthy.sh tests/cli/matrix-rules.sh

include $(top_srcdir)/tests/gpu.mk
include $(top_srcdir)/tests/toolkit.mk
include $(top_srcdir)/tests/env.mk
include $(top_srcdir)/tests/matrix.mk
include $(top_srcdir)/tests/fetch.mk
include $(top_srcdir)/tests/elf.mk
include $(top_srcdir)/tests/pe.mk
include $(top_srcdir)/tests/winprobe.mk
include $(top_srcdir)/tests/winneeds.mk
include $(top_srcdir)/tests/winbridge.mk
include $(top_srcdir)/tests/ldcache.mk
include $(top_srcdir)/tests/loader.mk
include $(top_srcdir)/tests/differential.mk
include $(top_srcdir)/tests/explain.mk
include $(top_srcdir)/tests/libs.mk
include $(top_srcdir)/tests/pyenv.mk
include $(top_srcdir)/tests/fatbin.mk
include $(top_srcdir)/tests/framework.mk
include $(top_srcdir)/tests/pyrules.mk
include $(top_srcdir)/tests/helper.mk
include $(top_srcdir)/tests/verify.mk
include $(top_srcdir)/tests/envscript.mk
include $(top_srcdir)/tests/envcmd.mk
include $(top_srcdir)/tests/wizard.mk
include $(top_srcdir)/tests/docs.mk
include $(top_srcdir)/tests/map.mk
include $(top_srcdir)/tests/gates.mk
include $(top_srcdir)/tests/hostile.mk

clean-local: clean-test-tmp
clean-test-tmp:
	-chmod -R u+rwx tests/tmp 2>/dev/null
	-rm -rf tests/tmp
.PHONY: clean-test-tmp

# Benchmarks a person runs (bench/RESULTS.md); shipped, never run by check.
EXTRA_DIST += bench/pyenvs.sh bench/gen-pyenvs.py bench/gen-pyenv-libs.sh \
	bench/run.sh bench/doctor.sh bench/wizard.sh bench/gen-tree.sh bench/gen-closure.sh \
	bench/portable.sh \
	bench/RESULTS.md bench/README.md

# Issue 16's regression tests, one fragment per area.
include $(top_srcdir)/tests/harden-sysroot.mk
include $(top_srcdir)/tests/harden-scale.mk
include $(top_srcdir)/tests/harden-children.mk
include $(top_srcdir)/tests/harden-trust.mk
include $(top_srcdir)/tests/harden-scripts.mk
include $(top_srcdir)/tests/harden-reads.mk
include $(top_srcdir)/tests/harden-matrix.mk
include $(top_srcdir)/tests/facts.mk

# Issue 17's one pipeline: the commands agree on the matrix and its note.
include $(top_srcdir)/tests/run.mk

# Issue 21's HTML report.
include $(top_srcdir)/tests/html.mk
# Issue 21's fallbacks (terminfo, pci.ids) and --version.
include $(top_srcdir)/tests/fallback.mk
# Issue 22: fleet reports.
include $(top_srcdir)/tests/fleet.mk

# Issue 21: the wheel's Python package.
include $(top_srcdir)/tests/python.mk

# Issue 22: the Prometheus metrics and their systemd units.
include $(top_srcdir)/tests/prom.mk

# Issue 23: the Windows DLL search model.
include $(top_srcdir)/tests/winload.mk

# Issue 23: the helper and its runner on Windows, under Wine.
include $(top_srcdir)/tests/verifywin.mk

# Last: fix-lint.sh lints the documents the tests before it leave.
include $(top_srcdir)/tests/fixlint.mk

check_PROGRAMS += tests/unit/test_specdiff
tests_unit_test_specdiff_SOURCES = tests/unit/test_specdiff.c
tests_unit_test_specdiff_CPPFLAGS = $(UNIT_CPPFLAGS) $(JANSSON_CFLAGS)
tests_unit_test_specdiff_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/test_specdiff
check_PROGRAMS += tests/unit/test_sha256
tests_unit_test_sha256_SOURCES = tests/unit/test_sha256.c
tests_unit_test_sha256_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_sha256_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/test_sha256
TESTS += tests/cli/fleet-cli.sh
EXTRA_DIST += tests/cli/fleet-cli.sh
TESTS += tests/cli/host-identity.sh tests/cli/spec-export.sh tests/cli/doctor-baseline.sh
EXTRA_DIST += tests/cli/host-identity.sh tests/cli/spec-export.sh \
	tests/cli/doctor-baseline.sh tests/cli/spec-common.sh
