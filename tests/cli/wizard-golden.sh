#!/bin/sh
# The wizard's pages as golden screens: tests/tools/wizard-render runs the
# wizard's own loop on a grid, with keys from tests/wizard/*.keys, on
# fixture trees, and every screen is compared with tests/wizard/golden/.
# GENERATE=1 rewrites the golden files instead (review the diff).
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_framework.sh"

[ -x "${WIZARD_RENDER:-}" ] || skip_all "no wizard-render (make check builds it)"

golden=$TESTS_SRCDIR/wizard/golden
version=$("$CUDAWIZ" --version | sed 's/^cudawiz //')
today=$(date -u +%Y-%m-%d)
# The fixture matrix under a fixed name, so its name is the same length
# in every run.
mdir=$(mktemp -d "$FX_TMP/wizard-matrix.XXXXXX") || exit 99
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
	    \${UBSAN_OPTIONS:+UBSAN_OPTIONS=\"\$UBSAN_OPTIONS\"} LC_ALL=C $FX_ENV \
	    \"\$WIZARD_RENDER\" --root \"\$FX\" --root-as /fixture \
	    --matrix matrix.json \
	    --keys \"\$TESTS_SRCDIR/wizard/\$keys\" \"\$@\"") \
	    > "$FX.screens" 2> "$FX.stderr"
	rc=$?
	sed -e "s/cudawiz $version/cudawiz @VERSION@/" -e "s/$today/YYYY-MM-DD/g" \
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

broken
render broken-walk walk.keys
render broken-diagnosis diagnosis.keys
render broken-ascii walk.keys --ascii --final
render resize resize.keys

# The Fix page on the broken machine: the lists, the path typed, the
# preview scrolled, q asking first, the script written, the Done page.
render broken-fix fix.keys
script=$mdir/fixed-cudawiz-env.sh
ok "fix: the script is on disk" test -s "$script"
is "$(grep -m1 'cudawiz-format:' "$script" 2>/dev/null)" "# cudawiz-format: sh" \
    "fix: it is a sh script"
is "$(head -n 1 "$script" 2>/dev/null | cut -c1-21)" "# cudawiz-format: sh" \
    "fix: and its first line says so"

# The check sources the written script in this machine's shell, which
# drops directories this machine lacks: its rows depend on the machine,
# so they are matched, not compared whole.
run_render fix-check.keys
is "$rc" 0 "fix-check: wizard-render exits 0"
screens=$(cat "$FX.masked")
like "$screens" "write the script first: the check sources the file on disk" \
    "fix-check: Check before Write says to write first"
like "$screens" "wrote \./cudawiz-env\.sh" "fix-check: the default path is written"
# The header of the first screen with a line matching an awk pattern.
header_of() { awk -v pat="$1" '/^=== /{h=$0} $0 ~ pat {print h; exit}' "$FX.masked"; }
is "$(header_of 'Checking \\./cudawiz-env\\.sh')" "=== enter (80x24) ===" \
    "fix-check: a frame says the check runs before it does"
is "$(header_of 'Check of \\./cudawiz-env\\.sh: a sh script, sourced in ')" \
    "=== (worked) (80x24) ===" "fix-check: then, with no key, its result"
like "$screens" "libcudart\.so\.12 for torch 2\.3\.1 .*: (FIXED|STILL BROKEN|unchanged|resolves elsewhere)" \
    "fix-check: torch's runtime need, with its verdict"
like "$screens" "not run: under --root nothing is loaded" "fix-check: no live load under --root"
like "$screens" "Result: " "fix-check: the result line, scrolled to"
like "$screens" "activate:  \. \./cudawiz-env\.sh" "fix-check: Done says how to activate"
like "$screens" "undo:      cudawiz_deactivate_" "fix-check: and how to undo"
ok "fix-check: the script is on disk" test -s "$mdir/cudawiz-env.sh"

# A relative name without "./" and starting with '-': Done's activate
# line is `cudawiz env`'s (script_source_cmd): ". ./-x…", which dash, zsh
# and ksh read as a file, not a PATH search or an option.
run_render fix-dash.keys
is "$rc" 0 "fix-dash: wizard-render exits 0"
ok "fix-dash: the script is on disk" test -s "$mdir/-xcudawiz-env.sh"
like "$(cat "$FX.masked")" "activate:  \\. \\./-xcudawiz-env\\.sh " \
    "fix-dash: Done's activate line sources ./-xcudawiz-env.sh"

done_testing
