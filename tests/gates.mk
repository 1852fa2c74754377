# The gates beside `make check` that CI runs (.ci/run, through bootstrap):
#
#   make check-lint       the checks of the repository itself: po/, docs/,
#                         the man page and completions against the binary,
#                         the library walls, the map of tests/README.md
#   make check-unit       the unit tests alone (tests/unit/ but the lint),
#                         building only their programs (the clang build
#                         runs these)
#   make check-programs   every check program built, none run (the clang
#                         build compiles them all with -Werror)
#   make check-asan       the suite but the tests that run no compiled code
#                         (./bootstrap check --asan, in its ASan build)
#   make check-valgrind   the CLI tests with cudawiz under valgrind memcheck
#                         (counts in valgrind-suite.log)
#   make check-dist       make distcheck with the dist tree's `make check`
#                         narrowed to DIST_TESTS (see the distcheck part)
#
# Each runs automake's harness on a subset of TESTS, so its counts land in
# this build directory's test-suite.log as usual (check-valgrind's, which
# runs beside the plain suite in build/, in valgrind-suite.log). `make
# check` builds every check_PROGRAMS (the fuzz replayers, the test tools,
# the benches) before it runs a test; a gate that needs fewer narrows check_PROGRAMS on
# the sub-make's command line, as it narrows TESTS (each test's log
# depends on its own program, so what it runs is still built). The lint
# tests stay in TESTS too: `make check` (the README's ./bootstrap check)
# stays the whole suite, and they take seconds.

# The subsets are picked in the shell: automake -Wall rejects make's
# $(filter) as non-portable.
LINT_TESTS = tests/unit/potfiles.sh tests/unit/po-check.sh \
	tests/unit/security-doc.sh tests/unit/core-walls.sh tests/unit/include-walls.sh \
	tests/unit/test-map.sh tests/cli/docs-man.sh tests/cli/docs-completion.sh
# po-check.sh renders a wizard page in each language.
LINT_TOOLS = tests/tools/wizard-render$(EXEEXT)
check-lint: all
	$(MAKE) $(AM_MAKEFLAGS) check TESTS="$(LINT_TESTS)" \
	    check_PROGRAMS="$(LINT_TOOLS)"

check-unit: all
	@tests=; progs=; for t in $(TESTS); do \
	    case " $(LINT_TESTS) " in *" $$t "*) continue ;; esac; \
	    case $$t in \
	    tests/unit/*.sh) tests="$$tests $$t" ;; \
	    tests/unit/*) tests="$$tests $$t"; progs="$$progs $$t$(EXEEXT)" ;; \
	    esac; done; \
	$(MAKE) $(AM_MAKEFLAGS) check TESTS="$$tests" check_PROGRAMS="$$progs"

check-programs: all
	$(MAKE) $(AM_MAKEFLAGS) $(check_PROGRAMS)

# ------------------------------------------------------------ ASan
# ./bootstrap check --asan runs this in build-asan/: the whole suite but
# the tests that run no compiled code, so that AddressSanitizer and UBSan
# watch nothing there and the run only repeats the plain gate's (which
# runs them, as does `make check` here):
#   loader-differential-selftest.sh  gentree.py's comparison against
#                             glibc's own answers, through ld.so and
#                             dlopen-probe, never cudawiz (31 s of a plain
#                             -j2 run's test time; 32 s of CPU)
#   potfiles.sh core-walls.sh include-walls.sh test-map.sh
#                             read the sources and the makefiles (about
#                             2 s each)
#   fix-lint.sh               lints the doctor and explain documents the
#                             other tests left (about 600): the same
#                             documents the plain gate lints, made by the
#                             same sources from the same fixtures, so the
#                             only compiled code it adds is the lint tool
#                             itself. It runs last and alone (it waits for
#                             every other log): its ~590 lint runs took
#                             141 s of CPU in the ASan build, 39 s in the
#                             plain one (issue 21)
#   dllsearch-wine.sh         the DLL search model against Wine (about
#                             20 s of a plain run, nearly all Wine's);
#                             test_dllsearch runs the model under ASan
#   winprobe-mingw.sh         builds its machine's DLLs with mingw-w64 (the
#                             compiler's time); test_winprobe, test_winneeds
#                             and pe-mingw.sh run the probe and the reader
#                             under ASan
#   pe-wine.sh                Wine's DLLs against objdump and windres
#                             (their time, not the reader's); pe-mingw.sh's
#                             built DLLs, prefixes and 3,000 mutations and
#                             test_pe run the reader under ASan
#   verify-wine.sh            Windows binaries under Wine (about 20 s);
#                             its one Linux helper run is helper-fake.sh's
#                             good run, which ASan watches there
ASAN_SKIP = tests/cli/winprobe-mingw.sh|tests/cli/pe-wine.sh|tests/cli/loader-differential-selftest.sh|tests/unit/potfiles.sh|tests/unit/core-walls.sh|tests/unit/include-walls.sh|tests/unit/test-map.sh|tests/cli/fix-lint.sh|tests/cli/dllsearch-wine.sh|tests/cli/verify-wine.sh|tests/cli/winneeds-wine.sh
check-asan: all
	@tests=; for t in $(TESTS); do \
	    case $$t in $(ASAN_SKIP)) ;; *) tests="$$tests $$t" ;; esac; \
	done; \
	$(MAKE) $(AM_MAKEFLAGS) check TESTS="$$tests"

# ------------------------------------------------------------ valgrind
# ./bootstrap check --valgrind runs this in build/, on the binaries the
# plain gate tested (valgrind needs no build of its own: a plain -O2 -g
# one is what it reads best short of -O0), with its counts in
# valgrind-suite.log so that test-suite.log stays the plain suite's.
# The CLI tests reach cudawiz through $CUDAWIZ, so this run points it at
# cudawiz-valgrind (tests/tools/valgrind-run.c), built in the top build
# directory because tests look for their tools beside $CUDAWIZ; it runs
# the real binary under memcheck. Every memcheck error and every definite
# leak fails the gate, and the log of each failing process is printed
# (tests/lib/valgrind-report.sh). Blocks still reachable at exit are not
# counted: cudawiz leaves some long-lived state to the exit, as most
# programs do. The processes cudawiz starts (ld.so for the loader profile,
# the shells of `env --check`) run unwatched, except the helper: with
# VALGRIND_HELPER=yes, CUDAWIZ_HELPER points at cudawiz-verify-valgrind
# and the helper runs under memcheck too. The default, auto, does that
# only where no NVIDIA driver is loaded: there the helper meets the test
# suite's stand-in libcuda and at most a toolkit's runtime and cuDNN,
# while on a GPU machine it would drive the real driver under memcheck,
# slow past verify's time limits and full of reports about NVIDIA's
# closed code that nobody here can fix. Tests see
# CUDAWIZ_UNDER_VALGRIND=1 so that they can skip the few checks valgrind
# itself makes false (its LD_PRELOAD in cudawiz's environment, timings).
# DIFF_TREES: the differential tests' random trees, 300 each by default,
# take ~15 minutes under valgrind; a few cover the same code. The hostile
# trees' bounds (tests/lib/fx_hostile.sh) are widened as for ASan: memcheck
# shadows every heap byte and keeps freed blocks for a while, so the RSS
# margin is three times as wide (still far below a 1 GB read), and the
# time limit allows for its 20-50 times slower runs.
#
# CLI tests left out, each with why (shell patterns, separated by |).
# None of them runs cudawiz or its helper (but docs-common.sh's two runs,
# which docs-man.sh makes here too), so memcheck would see nothing new
# and the run would only repeat the plain gate's. The second group ran
# here until issue 18: make check-valgrind on those 13 alone checked 4
# processes (docs-common.sh's, twice) in 350 s wall at -j2.
#   fix-lint.sh               lints the documents the other tests left
#                             (the plain and ASan gates lint the same
#                             advice; memcheck has nothing to add)
#   fatbin-speed.sh           times tests/tools/fatbin-list
#   loader-differential-selftest.sh  checks gentree.py against ld.so
#   matrix-fetch-api.sh       runs tests/unit/test_fetch
#   helper-cudecl.sh          compiles the helper's declarations
#   fuzz-replay.sh            runs the fuzz replayers (ASan covers them)
#   envscript-*.sh            run tests/tools/envscript-render
#   elf-check.sh elf-damage.sh elf-fixtures.sh elf-readelf.sh
#                             run tests/tools/elfobj-dump (ASan covers it)
#   ldcache-damage.sh ldcache-formats.sh ldcache-host.sh
#   ldcache-ldconfig.sh ldcache-loader.sh
#                             run tests/tools/ldcache-dump (ASan covers it)
#   wizard-update.sh wizard-bigterm.sh
#                             run tests/tools/wizard-render
#   docs-completion.sh docs-shells.sh
#                             read the completion scripts and run them in
#                             their shells; cudawiz only for --help and
#                             env --shell '?' (docs-common.sh), which
#                             docs-man.sh runs here through the same file
# Issue 20 (CI time headroom; test seconds from a plain -j2 run's logs
# and CPU measured on the 2-core build VM; under valgrind these tests
# cost the same as in the plain gate, memcheck watching nothing):
#   fatbin-nvcc.sh fatbin-damage.sh fatbin-toolkit.sh fatbin-synthetic.sh
#                             run tests/tools/fatbin-list (ASan covers it)
#                             on libraries nvcc and the tool build: 55 +
#                             35 + 5 + 5 s of CPU
#   wizard-golden.sh wizard-verify.sh
#                             run tests/tools/wizard-render (its helper is
#                             a script); cudawiz only for --version, which
#                             basics.sh runs here (16 + 3 s of CPU)
#   dllsearch-wine.sh pe-mingw.sh pe-wine.sh winprobe-mingw.sh
#                             run no cudawiz (issue 23): the model's tool,
#                             pe-dump and winprobe-dump, which ASan watches
#   verify-wine.sh            runs Windows binaries under Wine; its one
#                             Linux helper run is helper-fake.sh's good
#                             run (issue 23)
# and explain-corpus.sh runs one message per expected finding here (17 of
# 91: EXPLAIN_CORPUS_ONE_PER_CODE): the 91 explain processes took 188 s
# of CPU under memcheck; each rule's path still runs under it, and the
# plain and ASan + UBSan gates explain every message.
#
# VALGRIND_SAMPLE "FIRST EVERY" (issue 21): within one test, the processes
# of one command word (doctor, env, why, explain, matrix ...) run under
# memcheck when they are among the first FIRST, or every EVERY-th after;
# the others run the same binary unwatched (tests/tools/valgrind-run.c
# says how test and word are told; a run no test script is an ancestor of,
# as the wizard in a tmux pane, is always watched: its order against other
# tests' panes is not fixed; valgrind-report.sh prints the counts,
# each (test, word) in $(VALGRIND_LOGS)/sample.TEST.WORD.count). What is
# no longer watched: the 4th-and-later runs of a command within a test,
# but one in eight (four until issue 23), i.e. a test's further fixtures for a code path it has
# already run under memcheck 3 times (gpu-badinput.sh's 21 doctor runs on
# a tree with one bad file each, env-named-dirs.sh's 26 `env` runs on
# named directories). Every process still runs in the plain gate's
# assertions (the test checks the same output either way), and in the
# ASan + UBSan gate, which watches every process for what memcheck
# watches but for reads of uninitialised memory; those, memcheck's own
# value, are still looked for in at least 3 runs of each command in each
# test (a test is one kind of fixture), and in one of eight after.
# Measured on the 2-core VM (gpu-badinput.sh + env-named-dirs.sh, make
# check-valgrind TESTS=...): all 48 processes watched 98 s of CPU, 109 s
# wall; sampled (18 watched) 57 s of CPU, 62 s wall: 1.37 s of CPU for
# each process no longer watched. loader-differential.sh (DIFF_TREES=16)
# + driver-probe.sh: 65 s of CPU, 68 s wall all watched; 32 s, 28 s
# sampled. The 26 CLI tests with the most runs
# (make check-valgrind VALGRIND_SAMPLE='0 100000' counts them at about
# native speed) started 339 processes, 183 of which now run unwatched
# (about 250 s of CPU, 2 minutes of the -j2 gate); their heaviest (test,
# word) were env-paths doctor 24, driver-probe doctor 22, pyenv-discovery
# doctor 19, explain-corpus explain 17, loader-differential why 16.
# `make check-valgrind VALGRIND_SAMPLE=` watches every process.
# Issue 23: every 8th after the first 3, not every 4th, for CI's hour
# (the Windows tests' share): of the 1,224 runs through the wrapper in
# CI's gate, 609 processes watched instead of 702 (each (test, word)
# still watched 3 times; the 93 left out are later runs of a word a test
# had already run under memcheck 3 times, at about 1.37 s of CPU each).
VALGRIND_SKIP = tests/cli/dllsearch-wine.sh|tests/cli/winneeds-wine.sh|tests/cli/pe-mingw.sh|tests/cli/winprobe-mingw.sh|tests/cli/pe-wine.sh|tests/cli/fix-lint.sh|tests/cli/fatbin-speed.sh|tests/cli/loader-differential-selftest.sh|tests/cli/matrix-fetch-api.sh|tests/cli/helper-cudecl.sh|tests/cli/fuzz-replay.sh|tests/cli/envscript-*.sh|tests/cli/elf-check.sh|tests/cli/elf-damage.sh|tests/cli/elf-fixtures.sh|tests/cli/elf-readelf.sh|tests/cli/ldcache-damage.sh|tests/cli/ldcache-formats.sh|tests/cli/ldcache-host.sh|tests/cli/ldcache-ldconfig.sh|tests/cli/ldcache-loader.sh|tests/cli/wizard-update.sh|tests/cli/wizard-bigterm.sh|tests/cli/docs-completion.sh|tests/cli/docs-shells.sh|tests/cli/fatbin-nvcc.sh|tests/cli/fatbin-damage.sh|tests/cli/fatbin-toolkit.sh|tests/cli/fatbin-synthetic.sh|tests/cli/wizard-golden.sh|tests/cli/wizard-verify.sh|tests/cli/verify-wine.sh
VALGRIND_LOGS = valgrind-logs
VALGRIND_HELPER = auto
VALGRIND_SAMPLE = 3 8
VALGRIND_ENV = CUDAWIZ='$(abs_top_builddir)/cudawiz-valgrind'; \
	CUDAWIZ_UNDER_VALGRIND=1; DIFF_TREES=16; EXPLAIN_CORPUS_ONE_PER_CODE=1; \
	HOSTILE_MARGIN_KB=460800; HOSTILE_TIMEOUT=600; \
	export CUDAWIZ CUDAWIZ_UNDER_VALGRIND DIFF_TREES EXPLAIN_CORPUS_ONE_PER_CODE; \
	export HOSTILE_MARGIN_KB HOSTILE_TIMEOUT;

EXTRA_PROGRAMS = cudawiz-valgrind cudawiz-verify-valgrind
# 97: not a status cudawiz uses (0, 1, 2), nor ASan's 99 or UBSan's 98.
VALGRIND_RUN_CPPFLAGS = $(AM_CPPFLAGS) \
	-DVG_PROGRAM='"$(VALGRIND)"' -DVG_EXITCODE='"97"' \
	-DVG_SUPP='"$(abs_top_srcdir)/tests/valgrind.supp"' \
	-DVG_LOGDIR='"$(abs_top_builddir)/$(VALGRIND_LOGS)"'
cudawiz_valgrind_SOURCES = tests/tools/valgrind-run.c
cudawiz_valgrind_CPPFLAGS = $(VALGRIND_RUN_CPPFLAGS) \
	-DVG_BIN='"$(abs_top_builddir)/cudawiz"'
cudawiz_verify_valgrind_SOURCES = tests/tools/valgrind-run.c
cudawiz_verify_valgrind_CPPFLAGS = $(VALGRIND_RUN_CPPFLAGS) \
	-DVG_BIN='"$(abs_top_builddir)/cudawiz-verify"'
CLEANFILES += cudawiz-valgrind cudawiz-verify-valgrind

# The log directory is sticky and open to all: some tests run cudawiz as
# user 65534.
check-valgrind: all
	@if [ -z "$(VALGRIND)" ]; then \
	    echo "valgrind was not found by configure (Debian package: valgrind)" >&2; \
	    exit 1; fi
	$(MAKE) $(AM_MAKEFLAGS) cudawiz-valgrind
	-rm -rf $(VALGRIND_LOGS)
	mkdir $(VALGRIND_LOGS)
	chmod 1777 $(VALGRIND_LOGS)
	@if [ -n "$(VALGRIND_SAMPLE)" ]; then \
	    echo "valgrind: sampling (first, every): $(VALGRIND_SAMPLE)"; \
	    echo "$(VALGRIND_SAMPLE)" > $(VALGRIND_LOGS)/sample; fi
	@helper=$(VALGRIND_HELPER); \
	if [ "$$helper" = auto ]; then \
	    helper=yes; [ -e /proc/driver/nvidia/version ] && helper=no; \
	fi; \
	echo "valgrind: the helper under memcheck too: $$helper"; \
	if [ "$$helper" = yes ]; then \
	    $(MAKE) $(AM_MAKEFLAGS) cudawiz-verify-valgrind || exit 1; \
	    helper="CUDAWIZ_HELPER='$(abs_top_builddir)/cudawiz-verify-valgrind'; export CUDAWIZ_HELPER;"; \
	else helper=; fi; \
	tests=; for t in $(TESTS); do \
	    case $$t in $(VALGRIND_SKIP)) ;; tests/cli/*.sh) tests="$$tests $$t" ;; esac; \
	done; \
	status=0; \
	$(MAKE) $(AM_MAKEFLAGS) check TESTS="$$tests" \
	    TESTS_ENVIRONMENT="$(VALGRIND_ENV) $$helper" \
	    TEST_SUITE_LOG=valgrind-suite.log || status=1; \
	$(SHELL) $(top_srcdir)/tests/lib/valgrind-report.sh $(VALGRIND_LOGS) \
	    || status=1; \
	exit $$status

clean-local: clean-valgrind-logs
clean-valgrind-logs:
	-rm -rf $(VALGRIND_LOGS) valgrind-suite.log
.PHONY: check-lint check-unit check-programs check-asan check-valgrind clean-valgrind-logs
EXTRA_DIST += tests/lib/valgrind-report.sh tests/valgrind.supp

# ------------------------------------------------------------ distcheck
# make distcheck proves what no other gate does: the tarball configures
# and builds from scratch out of tree on read-only sources, every test
# program compiles from it, and it installs and uninstalls cleanly (also
# under DESTDIR). Its `make check` of the dist tree used to re-run the
# whole plain suite (752 s of CI's 3,278), which the plain gate had just
# run on the very same sources; what that second run added was that the
# files the tests read are in the tarball. distcheck-hook proves that for
# every file at once (tests/lib/dist-files.sh: every file git tracks is
# in the unpacked tarball, a short list of records aside), so check-dist
# runs distcheck with the dist tree's `make check` narrowed to DIST_TESTS:
# the unit tests and the lint (po/, docs/, the man page, completions, the
# test map and every *.mk, read from the tarball) and CLI tests that each
# read another kind of distributed file:
#   basics.sh          the binary and its help, installed-style paths
#   matrix-embed.sh    data/matrix.json, embedded and read back
#   matrix-show.sh     data/ through the matrix command
#   fuzz-replay.sh     fuzz/ corpora and the replayers
#   wizard-golden.sh   tests/wizard/ key scripts and golden screens
#   env-plan.sh        the fixture builders (tests/lib/fixture.sh, fx_*.sh)
#   verify-cli.sh      the helper and tests/tools/' stand-in libcuda
#   explain-input.sh   the explain recognizers on the tests' messages
# `make distcheck` itself is unchanged (the whole suite from the tarball,
# for a release); the hook runs in both.
DIST_CLI_TESTS = tests/cli/basics.sh tests/cli/matrix-embed.sh \
	tests/cli/matrix-show.sh tests/cli/fuzz-replay.sh \
	tests/cli/wizard-golden.sh tests/cli/env-plan.sh \
	tests/cli/verify-cli.sh tests/cli/explain-input.sh
# TESTS on distcheck's command line reaches the dist tree's make through
# MAKEFLAGS, as command-line variables do; check_PROGRAMS is left whole,
# so every test program is still compiled from the tarball.
check-dist:
	@tests=; for t in $(TESTS); do \
	    case $$t in tests/unit/*) tests="$$tests $$t" ;; esac; \
	done; \
	for t in $(DIST_CLI_TESTS); do \
	    case " $(TESTS) " in *" $$t "*) tests="$$tests $$t" ;; \
	    *) echo "check-dist: $$t is not a test (DIST_CLI_TESTS)" >&2; exit 1 ;; \
	    esac; \
	done; \
	$(MAKE) $(AM_MAKEFLAGS) distcheck TESTS="$$tests"

distcheck-hook:
	$(SHELL) $(top_srcdir)/tests/lib/dist-files.sh $(top_srcdir) $(distdir)
.PHONY: check-dist
EXTRA_DIST += tests/lib/dist-files.sh
