#!/bin/sh
# Issue 16 point 1: live checks never load a library the user did not
# ask for. A .venv in the current directory holds a fake libcudart.so.12
# (pip wheel layout) whose constructor creates a marker file: plain
# `verify`, `doctor` and `cudawiz` must never create it; `verify --env`
# and an active VIRTUAL_ENV load it; a tree another user can write
# (owned by uid 65534, or mode 0777) is refused even then.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_framework.sh"

[ -x "$CUDAWIZ_HELPER" ] || skip_all "no helper at $CUDAWIZ_HELPER"
command -v jq > /dev/null 2>&1 || skip_all "jq is not installed"
[ -n "$FIXTURE_CC" ] || skip_all "FIXTURE_CC is not set"

W=$(mktemp -d "$FX_TMP/verify-trust.XXXXXX") || exit 99
trap '[ -n "${KEEP:-}" ] || rm -rf "$W"; fx_cleanup' EXIT
W=$(cd "$W" && pwd -P)
M=$W/marker
SP=lib/python3.12/site-packages

# venv DIR: a venv at DIR whose nvidia-cuda-runtime wheel's library
# creates $M when it is loaded, and a torch whose libtorch_cuda.so finds
# it through its RUNPATH, as the real wheels do: how the probes find the
# runtime of an environment that is not active.
venv() {
	mkdir -p "$1/bin" "$1/$SP/nvidia/cuda_runtime/lib" \
	    "$1/$SP/nvidia_cuda_runtime_cu12-12.4.127.dist-info" || exit 99
	printf 'home = /usr/bin\ninclude-system-site-packages = false\nversion = 3.12.0\n' \
	    > "$1/pyvenv.cfg"
	printf 'Metadata-Version: 2.1\nName: nvidia-cuda-runtime-cu12\nVersion: 12.4.127\n' \
	    > "$1/$SP/nvidia_cuda_runtime_cu12-12.4.127.dist-info/METADATA"
	cp "$W/libcudart.so.12" "$1/$SP/nvidia/cuda_runtime/lib/" || exit 99
	# The fixture helpers write below $FX: here the paths are real.
	FX= fx_torch "$1/$SP" 2.4.0+cu124 12.4 \
	    -r '$ORIGIN/../../nvidia/cuda_runtime/lib' libcudart.so.12 || exit 99
}

cat > "$W/fake.c" <<EOF
#include <fcntl.h>
#include <unistd.h>
__attribute__((constructor)) static void
planted(void)
{
	int fd = open("$M", O_WRONLY | O_CREAT, 0644);

	if (fd >= 0)
		close(fd);
}
int cudaRuntimeGetVersion(int *v) { *v = 12040; return 0; }
EOF
$FIXTURE_CC -shared -fPIC -Wl,-soname,libcudart.so.12 -o "$W/libcudart.so.12" \
    "$W/fake.c" 2> "$W/cc.err" || {
	cat "$W/cc.err" >&2
	echo "Bail out! cannot build the fake libcudart"
	exit 99
}
chmod 0755 "$W"
mkdir -m 0755 "$W/proj" && venv "$W/proj/.venv"
LIB=$W/proj/.venv/$SP/nvidia/cuda_runtime/lib/libcudart.so.12
ENV=$W/proj/.venv

# cw DIR [VAR=VAL...] -- ARGS: cudawiz in DIR with a clean environment;
# rc, $W/out, $W/err.
cw() {
	dir=$1
	shift
	env_args=
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		env_args="$env_args $1"
		shift
	done
	shift
	rm -f "$M"
	# shellcheck disable=SC2086
	(cd "$dir" && timeout 300 env -i PATH=/usr/bin:/bin HOME=/nonexistent \
	    PWD="$dir" ASAN_OPTIONS="${ASAN_OPTIONS-}" \
	    UBSAN_OPTIONS="${UBSAN_OPTIONS-}" CUDAWIZ_HELPER="$CUDAWIZ_HELPER" \
	    $env_args "$CUDAWIZ" "$@" > "$W/out" 2> "$W/err")
	rc=$?
}
marker() { [ -e "$M" ] && echo created || echo absent; }
# The fake in the environment at PREFIX (torch's RUNPATH names it with
# a "..": compared by prefix and file name).
pick() { printf 'select((.lib | startswith("%s/")) and (.lib | endswith("/libcudart.so.12")))' "$1"; }
nl_lib() { jq -r ".verify.not_loaded[] | $(pick "$1") | .why" "$W/out"; }
run_lib() { jq -r ".verify.runs[] | $(pick "$1") | .outcome" "$W/out"; }

# The helper itself loads what it is given: the marker works.
"$CUDAWIZ_HELPER" runtime --lib "$LIB" > /dev/null 2>&1
is "$(marker)" created "the fake's constructor creates the marker when loaded"

# --- discovered, not active: never loaded -------------------------------
cw "$W/proj" -- verify --json
is "$(marker)" absent "verify in a directory with a .venv: its libcudart is not loaded"
is "$(jq -r '.verify.state' "$W/out")" ran "... verification ran"
like "$(nl_lib "$ENV")" "not the active environment; run \`cudawiz verify --env $W/proj/.venv\` to load it" \
    "... the .venv's library is listed as not loaded, with the reason"
is "$(run_lib "$ENV")" "" "... and is no run"
is "$(jq -r '[.verify.runs[].loaded] | all' "$W/out")" true "... runs say loaded: true"
cw "$W/proj" -- verify
like "$(cat "$W/out")" "not loaded: not the active environment" \
    "... the text report says not loaded and why"
is "$(marker)" absent "... (text report: not loaded either)"
cw "$W/proj" -- doctor --json
is "$(marker)" absent "doctor in that directory: not loaded"
cw "$W/proj" --
is "$(marker)" absent "plain cudawiz off a terminal: not loaded"

# --- asked for: loaded ----------------------------------------------------
cw "$W/proj" -- verify --json --env .venv
is "$(marker)" created "verify --env .venv loads it"
is "$(run_lib "$ENV")" done "... as a run that is done"
is "$(jq -r .verify.env "$W/out")" "$W/proj/.venv" "... verify.env is its real path"
cw "$W/proj" VIRTUAL_ENV="$W/proj/.venv" -- verify --json
is "$(marker)" created "VIRTUAL_ENV names it (root-owned tree): loaded"
is "$(run_lib "$ENV")" done "... as a run"

# python3 on PATH is the environment's: doctor calls it active, and
# running python3 loads its libraries anyway.
ln -sf /usr/bin/python3 "$ENV/bin/python3"
cw "$W/proj" PATH="$ENV/bin:/usr/bin:/bin" -- verify --json
is "$(marker)" created "the environment whose python3 PATH runs is loaded (doctor calls it active)"
rm -f "$ENV/bin/python3"
cw "$W/proj" PATH="$ENV/bin:/usr/bin:/bin" -- verify --json
is "$(marker)" absent "... and without a python3 there, its bin/ on PATH alone does not"

# --- the loader's own answer: what the user's programs load anyway --------
WHEEL=$ENV/$SP/nvidia/cuda_runtime/lib
cw "$W/proj" LD_LIBRARY_PATH="$WHEEL" -- verify --json
is "$(marker)" created "LD_LIBRARY_PATH names the wheel's directory: the loader's answer is loaded"
# An environment's link to that very file is still the environment's:
# the helper would search the link's directory for its dependencies.
mkdir -m 0755 "$W/proj3" && venv "$W/proj3/.venv" || exit 99
ln -sf "$WHEEL/libcudart.so.12" "$W/proj3/.venv/$SP/nvidia/cuda_runtime/lib/libcudart.so.12"
cw "$W/proj3" LD_LIBRARY_PATH="$WHEEL" -- verify --json
is "$(jq -r '[.verify.runs[] | .lib, .ld_library_path | select(. != null) |
    contains("/proj3/")] | any' "$W/out")" false \
    "... and another environment's link to it is never what the helper gets"

# --- a tree another user can write: refused -------------------------------
mkdir -m 0777 "$W/open" && mkdir -m 0755 "$W/open/proj" &&
    venv "$W/open/proj/.venv" || exit 99
cw "$W/open/proj" -- verify --json --env .venv
is "$rc" 2 "--env under a 0777 directory: refused, exit 2"
like "$(cat "$W/err")" "--env .venv is not loaded: $W/open is writable by every user" \
    "... saying which directory and why"
is "$(marker)" absent "... and nothing is loaded"
cw "$W/open/proj" VIRTUAL_ENV="$W/open/proj/.venv" -- verify --json
is "$(marker)" absent "VIRTUAL_ENV under a 0777 directory: not loaded"
like "$(nl_lib "$W/open/proj/.venv")" \
    "$W/open is writable by every user" "... the reason names the directory"
chmod 01777 "$W/open"
cw "$W/open/proj" -- verify --json --env .venv
is "$(marker)" created "the same directory made sticky (like /tmp): loaded"

if [ "$(id -u)" -ne 0 ]; then
	for t in "refused" "says why" "nothing loaded" "SUDO_UID"; do
		skip "uid 65534's tree: $t" "needs root"
	done
else
	mkdir -m 0755 "$W/theirs" && mkdir -m 0755 "$W/theirs/proj" &&
	    venv "$W/theirs/proj/.venv" && chown 65534 "$W/theirs" || exit 99
	cw "$W/theirs/proj" -- verify --json --env .venv
	is "$rc" 2 "--env under a directory uid 65534 owns: refused, exit 2"
	like "$(cat "$W/err")" "$W/theirs is writable by uid 65534" \
	    "... saying which directory and whose"
	is "$(marker)" absent "... and nothing is loaded"
	cw "$W/theirs/proj" SUDO_UID=65534 -- verify --json --env .venv
	is "$(marker)" created "... unless uid 65534 ran sudo (SUDO_UID): the invoker's own tree"
fi

cw "$W/proj" -- doctor --env .venv
is "$rc" 2 "--env is an option of verify only"

done_testing
