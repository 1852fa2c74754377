# The packages gate: `make check-packages` (./bootstrap check --packages;
# CI runs it once, after the suites). Each test here builds or installs
# something whole (the portable binaries, the Debian package, the wheel,
# a Debian 11 root, the HTML page in Chromium), so none is in TESTS: the
# README's ./bootstrap check stays the suite of the code. A test whose
# tool is missing skips and says which package brings it.
#
# The gate runs in build/ with a log of its own (packages-suite.log), so
# the plain suite's test-suite.log and counts stay as they were.
#
# Roots and other slow things these tests build are cached outside the
# tree, under $(PACKAGES_CACHE): a second run, or a second test, reuses
# them. One test per line, so that branches adding tests merge cleanly.
PACKAGES_CACHE = $${CUDAWIZ_TEST_CACHE:-$${XDG_CACHE_HOME:-$$HOME/.cache}/cudawiz-tests}
# The Debian 11 root's test first: on a cold cache debootstrap is the
# gate's longest wait, and the harness starts tests in this order (-j2).
PACKAGE_TESTS =
PACKAGE_TESTS += tests/pkg/bullseye-portable.sh
PACKAGE_TESTS += tests/pkg/portable-glibc.sh
PACKAGE_TESTS += tests/pkg/portable-aarch64.sh
PACKAGE_TESTS += tests/pkg/deb-install.sh
PACKAGE_TESTS += tests/pkg/wheel-install.sh
PACKAGE_TESTS += tests/pkg/wheel-aarch64.sh
PACKAGE_TESTS += tests/pkg/html-chromium.sh
PACKAGE_TESTS += tests/pkg/ansible-fleet.sh
PACKAGE_TESTS += tests/pkg/slurm-health.sh
# Issue 23: cudawiz.exe (make windows) under Wine.
PACKAGE_TESTS += tests/cli/windows-exe.sh
PACKAGE_TESTS += tests/cli/windows-doctor.sh
PACKAGE_TESTS += tests/cli/windows-registry.sh
PACKAGE_TESTS += tests/cli/windows-spec.sh
PACKAGE_TESTS += tests/cli/windows-verify.sh
PACKAGE_TESTS += tests/cli/windows-env.sh
PACKAGE_TESTS += tests/cli/windows-guide.sh
PACKAGE_TESTS += tests/cli/windows-html.sh
PACKAGE_TESTS += tests/cli/windows-matrix-update.sh
EXTRA_DIST += $(PACKAGE_TESTS) tests/lib/debroot.sh tests/lib/debroot-prefetch.sh \
	tests/lib/fx_windows.sh

# What the tests try is built first, once, one goal after another (two
# tests building the same thing at once under make -j would race): each
# goal's output is in dist/make-GOAL.log. A goal that fails does not stop
# the gate here; the tests that need its output fail and print that log,
# or skip when the tool it needs is missing. The wheels pack the portable
# binaries, so they come after them.
PACKAGE_GOALS =
PACKAGE_GOALS += portable
PACKAGE_GOALS += portable-aarch64
PACKAGE_GOALS += deb
PACKAGE_GOALS += wheel
PACKAGE_GOALS += wheel-aarch64
PACKAGE_GOALS += windows

check-packages: all
	@$(MKDIR_P) dist
	@for g in $(PACKAGE_GOALS); do \
	    echo "make $$g (dist/make-$$g.log)"; \
	    $(MAKE) $(AM_MAKEFLAGS) $$g > dist/make-$$g.log 2>&1 || \
	    echo "make $$g failed: its tests say why (dist/make-$$g.log)"; \
	done
	CUDAWIZ_TEST_CACHE="$(PACKAGES_CACHE)" DIST_DIR='$(abs_top_builddir)/dist' \
	$(MAKE) $(AM_MAKEFLAGS) check TESTS="$(PACKAGE_TESTS)" \
	    check_PROGRAMS= TEST_SUITE_LOG=packages-suite.log
