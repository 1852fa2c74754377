#!/bin/sh
# The wizard's pages as golden screens: tests/tools/wizard-render runs the
# wizard's own loop on a grid, with keys from tests/wizard/*.keys, on
# fixture trees, and every screen is compared with tests/wizard/golden/.
# GENERATE=1 rewrites the golden files instead (review the diff).
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_framework.sh"
. "$TESTS_SRCDIR/lib/fx_toolkit.sh"

[ -x "${WIZARD_RENDER:-}" ] || skip_all "no wizard-render (make check builds it)"

golden=$TESTS_SRCDIR/wizard/golden
version=$("$CUDAWIZ" --version | sed -n '1{s/^cudawiz //;s/ (.*//;p;}')
today=$(date -u +%Y-%m-%d)
# The fixture matrix under a fixed name, so its name is the same length
# in every run.
# The Fix page shows absolute paths in it: a name of the same length on
# every machine (masked below), so the screens wrap the same.
mdir=$(mktemp -d /tmp/cwgold.XXXXXX) || exit 99
fx_dirs="${fx_dirs:-} $mdir"
cp "$FX_MATRIX" "$mdir/matrix.json"

# The matrix is passed by a relative name from its own directory, and
# the root shown as /fixture, so no temporary path reaches the screens;
# the version and today's date (the fixture matrix's) are masked.
# Run from the matrix's directory: the Fix page's walks write their
# scripts there by a relative name, so no temporary path reaches the
# screens either.
run_render() {	# KEYS [ARG...]: screens in $FX.masked, status in $rc
	keys=$1
	shift
	# shellcheck disable=SC2086
	(cd "$mdir" && eval "env -i \${ASAN_OPTIONS:+ASAN_OPTIONS=\"\$ASAN_OPTIONS\"} \
	    \${UBSAN_OPTIONS:+UBSAN_OPTIONS=\"\$UBSAN_OPTIONS\"} ${RENDER_LC:-LC_ALL=C} $FX_ENV \
	    \"\$WIZARD_RENDER\" --root \"\$FX\" --root-as /fixture \
	    --matrix matrix.json \
	    --keys \"\$TESTS_SRCDIR/wizard/\$keys\" \"\$@\"") \
	    > "$FX.screens" 2> "$FX.stderr"
	rc=$?
	sed -e "s/cudawiz $version/cudawiz @VERSION@/" -e "s/$today/YYYY-MM-DD/g" \
	    -e "s|$mdir|/tmp/cwgold.XXXXXX|g" \
	    ${RENDER_SED:+-e "$RENDER_SED"} \
	    "$FX.screens" > "$FX.masked"
	fx_dirs="$fx_dirs $FX.screens $FX.masked $FX.stderr"
}

render() {	# NAME KEYS [ARG...]
	name=$1
	shift
	run_render "$@"
	is "$rc" 0 "$name: wizard-render exits 0"
	if [ -n "${GENERATE:-}" ]; then
		cp "$FX.masked" "$golden/$name.txt"
		skip "$name: the screens match" "GENERATE=1 rewrote $name.txt"
	elif diff -u "$golden/$name.txt" "$FX.masked" > "$FX.diff"; then
		tap_result 0 "$name: the screens match"
	else
		tap_result 1 "$name: the screens match"
		head -n 60 "$FX.diff" | sed 's/^/#   /'
	fi
	fx_dirs="$fx_dirs $FX.screens $FX.masked $FX.diff"
}

healthy() {
	fx_new
	fx_healthy_gpu
	fx_file /usr/share/misc/pci.ids "# pci.ids
10de  NVIDIA Corporation
	2330  GH100 [H100 SXM5 80GB]"
	fx_toolkit 13.0.0
	fx_link cuda-13.0 /usr/local/cuda
	fx_file /usr/local/cuda-13.0/include/cudnn_version.h "#define CUDNN_MAJOR 9
#define CUDNN_MINOR 17
#define CUDNN_PATCHLEVEL 0"
	fx_so /usr/local/cuda-13.0/targets/x86_64-linux/lib/libcudnn.so.9.17.0 libcudnn.so.9
	fx_link libcudnn.so.9.17.0 /usr/local/cuda-13.0/targets/x86_64-linux/lib/libcudnn.so.9
	fx_file /etc/ld.so.conf.d/cuda.conf "/usr/local/cuda-13.0/targets/x86_64-linux/lib"
	fx_dir /usr/bin
	fx_dir /bin
	FX_ENV="PATH=/usr/local/cuda/bin:/usr/bin:/bin CUDA_HOME=/usr/local/cuda"
}

# A machine with something on every page: a module upgraded without a
# reboot, a venv whose torch cannot find its runtime, a missing and an
# empty LD_LIBRARY_PATH entry, CUDA_VISIBLE_DEVICES hiding the GPU.
broken() {
	healthy
	fx_file /proc/driver/nvidia/version "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.95.05  Sat May 24 07:21:11 UTC 2025"
	fx_file /sys/module/nvidia/version 580.95.05
	fx_venv_env /home/u/venvs/train 3.11
	fx_torch "$FX_SITE" 2.3.1 12.1 libcudart.so.12
	FX_ENV="$FX_ENV VIRTUAL_ENV=/home/u/venvs/train LD_LIBRARY_PATH=/opt/cuda-11.8/lib64: CUDA_VISIBLE_DEVICES=-1"
}

healthy
render healthy-walk walk.keys
render answer-healthy answer-healthy.keys

broken
render broken-walk walk.keys
render broken-diagnosis diagnosis.keys
render broken-ascii walk.keys --ascii --final
render resize resize.keys
# The answer first: the top finding opened with Enter, a fix scrolled
# sideways, c's message, f to the Fix page; the wide layout's detail
# beside the list.
render answer answer.keys
render answer-wide answer-wide.keys --size 200x50
# The key map (digits, Esc back, no Backspace paging), the / search with
# its marks (slots), and the compact (60x20) and wide (200x50) layouts.
render broken-keys keys.keys
render broken-search search.keys --slots
render broken-compact compact.keys --size 60x20
render broken-compact-pages compact-pages.keys --size 60x20
render broken-wide wide.keys --size 200x50
# Clicks beside the list: the detail's half acts on the detail (it gets
# the keys, the selection stays), a list row selects its entry.
render broken-wide-click wide-click.keys --size 200x50
is "$(awk '/^=== click:10,150 /{on=1; next} /^===/{on=0} on' "$FX.masked" |
    tail -n 1 | cut -c1-8)" " Esc: ba" \
    "wide-click: a click on the detail gives it the keys"
like "$(awk '/^=== click:10,150 /{on=1; next} /^===/{on=0} on' "$FX.masked" |
    sed -n 3p)" "│ ✗ /usr/lib/x86_64-linux-gnu/libcuda" \
    "wide-click: and leaves the selection (the detail shown) as it was"
like "$(awk '/^=== click:5,20 /{on=1; next} /^===/{on=0} on' "$FX.masked" |
    sed -n 3p)" "│ ✗ CUDA_VISIBLE_DEVICES=-1" \
    "wide-click: a click on a list row selects that entry"

# The Live verification page with failures, as on a machine with no
# driver: the checks run on the tree (--stand-in-checks) with a stand-in
# helper that answers cudaErrorInsufficientDriver (35) for each library
# and loads nothing (tests/wizard/nodriver.helper), so the rows are the
# tree's, not this machine's; then a run stopped by Esc. Only the
# milliseconds (and the blanks after them) are masked.
healthy
cp "$TESTS_SRCDIR/wizard/nodriver.helper" "$mdir/nodriver" || exit 99
chmod +x "$mdir/nodriver"
FX_ENV="$FX_ENV CUDAWIZ_HELPER=$mdir/nodriver"
RENDER_SED='s/, [0-9][0-9]* ms  *│/, N ms │/'
render verify-failed verify-fail.keys --stand-in-checks
RENDER_SED=
screens=$(cat "$FX.masked")
like "$screens" "✗ runtime .*libcudart" "verify-failed: the runtime's check is ✗"
like "$screens" "cudaErrorInsufficientDriver \\(35\\)" \
    "verify-failed: with the error's name and number"
like "$screens" "stopped: 1 of [0-9]+ checks finished" \
    "verify-failed: the run stopped by Esc says so"
worked=$(awk '/^=== /{on = /^=== \(worked\)/} on' "$FX.masked")
like "$worked" "Findings from the checks" "verify-failed: the results are shown"
unlike "$worked" "✓ none" "verify-failed: never \"✓ none\" under the findings"

# The Fix page on the broken machine: the lists, the path edited, the
# preview scrolled down and sideways, q asking first, "Write and check"
# (under --root: written, honestly not checked), the Done page.
render broken-fix fix.keys
script=$mdir/fixed-cudawiz-env.sh
ok "fix: the script is on disk" test -s "$script"
is "$(grep -m1 'cudawiz-format:' "$script" 2>/dev/null)" "# cudawiz-format: sh" \
    "fix: it is a sh script"
is "$(head -n 1 "$script" 2>/dev/null | cut -c1-21)" "# cudawiz-format: sh" \
    "fix: and its first line says so"
screens=$(cat "$FX.masked")
like "$screens" "Output file +/tmp/cwgold\.XXXXXX/cudawiz-env\.sh" \
    "fix: the default path is absolute and shown"
like "$screens" "‹" "fix: the preview scrolled sideways shows where lines are cut"
like "$screens" "HOME is not an absolute path" "fix: Done's i needs a HOME"

# Under --root the proof would source the script against this machine's
# directories: it is not run, and the page says so (never "broken by
# the script").
render broken-fix-check fix-check.keys
screens=$(cat "$FX.masked")
like "$screens" "write the script first: the check sources the file on disk" \
    "fix-check: Check before Write says to write first"
like "$screens" "wrote /tmp/cwgold\.XXXXXX/cudawiz-env\.sh; not checked \(--root" \
    "fix-check: Write and check writes the default path, and says why it is not checked"
unlike "$screens" "BROKEN BY THE SCRIPT" "fix-check: nothing is called broken by the script"
unlike "$screens" "Checking " "fix-check: no check runs under --root"
ok "fix-check: the script is on disk" test -s "$mdir/cudawiz-env.sh"

# A file is at the default path now: Write and check asks first.
render broken-fix-replace fix-replace.keys
like "$(cat "$FX.masked")" "cudawiz-env\.sh exists: replace it\?" \
    "fix-replace: it asks before replacing a file"
ok "fix-replace: y replaced it and kept the old one" test -s "$mdir/cudawiz-env.sh.bak"

# The readline keys in the path field, ~ as $HOME, the name that says
# another shell; a name starting with '-' is absolute, so every shell
# reads it as a file.
FX_ENV="$FX_ENV HOME=$mdir"
render broken-fix-readline fix-dash.keys
screens=$(cat "$FX.masked")
ok "fix-readline: ~/-x.sh is written under HOME" test -s "$mdir/-x.sh"
like "$screens" "the name says fish, but the script is for sh" \
    "fix-readline: a .fish name for an sh script is warned about"
like "$screens" "activate:  \\. /tmp/cwgold\\.XXXXXX/-x\\.sh" \
    "fix-readline: Done's activate line reads the absolute path"

# From a finding's detail, f: the Fix page for it.
broken
render broken-fix-for fix-for.keys
screens=$(cat "$FX.masked")
like "$screens" "For: " "fix-for: the page says which finding it is for"
like "$screens" "No activation script fixes this" \
    "fix-for: a driver problem is not pretended to be fixed"
like "$screens" "/home/u/venvs/train" "fix-for: the framework's environment is chosen"

# On this machine, where the proof can run: it stops at once when asked
# and says so; run whole, it shows how to activate the script; the Done
# page's i adds the source line to the rc file. The rows depend on the
# machine: only the words around them are matched.
hdir=$(mktemp -d /tmp/cwhost.XXXXXX) || exit 99	# short: unwrapped
fx_dirs="$fx_dirs $hdir"
(cd "$hdir" && env -i ${ASAN_OPTIONS:+ASAN_OPTIONS="$ASAN_OPTIONS"} \
    ${UBSAN_OPTIONS:+UBSAN_OPTIONS="$UBSAN_OPTIONS"} LC_ALL=C \
    PATH=/usr/bin:/bin HOME="$hdir" "$WIZARD_RENDER" --root / \
    --keys "$TESTS_SRCDIR/wizard/fix-host.keys") > "$hdir/screens" 2>&1
is "$?" 0 "fix-host: wizard-render exits 0"
screens=$(cat "$hdir/screens")
like "$screens" "stopped: the check did not finish" "fix-host: Esc stops the check"
like "$screens" "Check of $hdir/cudawiz-env\.sh: a sh script" \
    "fix-host: Check again runs it whole"
like "$screens" "activate:  \. $hdir/cudawiz-env\.sh" \
    "fix-host: the result says how to activate it"
like "$screens" "added a line sourcing it to $hdir/" \
    "fix-host: Done's i edits the rc file"
ok "fix-host: the rc file sources the script" \
    grep -q "$hdir/cudawiz-env.sh" "$hdir/.profile"

# The fact pages in German and Chinese (issue 20's words): label columns
# sized for the language's labels, a framework with no kernels for the
# GPU not "GPU-ready", a conda env's cuDNN named by its env, a pip
# wheel's runtime apart from the toolkits, the LD_LIBRARY_PATH entry and
# the variables findings name marked. The catalogs are built here, and
# the C.UTF-8 locale lets LANGUAGE choose them.
words() {	# [wheel]: the venv has nvidia-cuda-runtime-cu12 too
	healthy
	fx_condaenv /home/u/miniconda3/envs/nlp 3.10
	fx_cudnn /home/u/miniconda3/envs/nlp/lib 8.9.2
	fx_so /home/u/miniconda3/envs/nlp/lib/libcudart.so.12 libcudart.so.12
	fx_file /home/u/.conda/environments.txt /home/u/miniconda3/envs/nlp
	fx_venv_env /home/u/venvs/arch 3.11
	if [ "${1:-}" = wheel ]; then
		fx_nvidia_wheel "$FX_SITE" nvidia-cuda-runtime-cu12 12.4.127
	fi
	fx_torch "$FX_SITE" 2.5.1 12.4
	# Kernels up to sm_80 and no PTX: none runs on the H100 (sm_90).
	fx_fatbin_lib "$FX_SITE/torch/lib/libtorch_cuda.so" libtorch_cuda.so \
	    'sm_50,sm_60,sm_70/sm_80' libcudart.so.12 || return 1
	FX_ENV="$FX_ENV HOME=/home/u VIRTUAL_ENV=/home/u/venvs/arch \
	    LD_LIBRARY_PATH=/home/u/miniconda3/envs/nlp/lib CUDA_VISIBLE_DEVICES=-1"
}

render_in() {	# LANG NAME KEYS [ARG...]: render NAME with LANGUAGE=LANG
	lang=$1
	shift
	mkdir -p "$mdir/locale/$lang/LC_MESSAGES"
	if ! msgfmt -o "$mdir/locale/$lang/LC_MESSAGES/cudawiz.mo" \
	    "$TESTS_SRCDIR/../po/$lang.po" 2>/dev/null; then
		skip "$1: in $lang" "no msgfmt (Debian package: gettext)"
		return
	fi
	RENDER_LC="LC_ALL=C.UTF-8 LANGUAGE=$lang CUDAWIZ_LOCALEDIR=$mdir/locale" \
	    render "$@"
}

if ! locale -a 2>/dev/null | grep -qix 'c\.utf-\?8'; then
	skip "words: the fact pages in German and Chinese" "no C.UTF-8 locale"
elif ! words; then
	skip "words: the fact pages in German and Chinese" \
	    "no $FATBIN_LIST or $OBJCOPY to build a fatbinary"
else
	render_in de words-de facts.keys
	words wheel
	render_in zh_CN words-zh_CN facts.keys
fi

done_testing
