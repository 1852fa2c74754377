# Fixture trees for --root tests. Source after tap.sh.
#
#   fx_new                      make an empty tree in $FX (removed at exit)
#   fx_file PATH [CONTENT]      write a file (CONTENT from stdin when absent)
#   fx_dir PATH                 make a directory
#   fx_link TARGET PATH         make a symlink PATH -> TARGET
#   fx_so PATH SONAME           build a real shared library with that SONAME
#   fx_host NAME ID OS          the tree's host identity: hostname, machine-id,
#                               os-release (an empty argument leaves it out)
#   fx_doctor [ARG...]          run cudawiz doctor --json on $FX with a clean
#                               environment plus FX_ENV; output in $FX_OUT,
#                               exit status in $FX_RC
#   fx_doctor_env N=V... [-- ARG...]  the same with exactly these variables
#   fx_cmd_env WORDS N=V... [-- ARG...]  cudawiz WORDS (another command) the
#                               same way; no JSON check
#   fx_jq FILTER                jq -r FILTER on $FX_OUT
#   fx_rchar                    bytes read by this shell's reaped children
#   fx_codes                    the finding codes in $FX_OUT, one per line
#   fx_drop_privileges          run later fx_doctor calls as user 65534 when
#                               root, so file permissions apply; fails with
#                               the reason in FX_DROP_WHY when it cannot
#   fx_keep_privileges          undo fx_drop_privileges
#
# Paths are inside the tree ("/usr/local/cuda" means "$FX/usr/local/cuda").
#
# With FX_LINT_DIR set (make check sets it; tests/cli/fix-lint.sh too when
# it replays a test), every doctor and explain JSON document is also kept
# in FX_LINT_DIR/TEST/, and TEST/.done marks a test that ran to its end:
# the fix lint sees each tree a test builds, new ones included.

: "${CUDAWIZ:?CUDAWIZ must name the cudawiz binary (make check sets it)}"
: "${FIXTURE_CC:=cc}"
: "${FX_TMP:=${TMPDIR:-/tmp}}"

command -v jq >/dev/null 2>&1 || skip_all "jq is not installed (Debian package: jq)"

# The embedded matrix grows stale 90 days after its date, and MATRIX_STALE
# would then appear in every run. Fixture runs use a copy dated today, so
# a test's findings do not depend on the day it runs (set FX_MATRIX= to
# use the embedded data).
if [ -z "${FX_MATRIX+set}" ]; then
	FX_MATRIX=$FX_TMP/cudawiz-matrix-today.$$.json
	jq --arg d "$(date -u +%Y-%m-%d)" '.date = $d' \
	    "$TESTS_SRCDIR/../data/matrix.json" > "$FX_MATRIX" ||
	    skip_all "cannot copy data/matrix.json"
fi

if [ -n "${FX_LINT_DIR:-}" ]; then
	fx_lint_dir=$FX_LINT_DIR/$(basename "$0" .sh)
	rm -rf "$fx_lint_dir"
	mkdir -p "$fx_lint_dir" || fx_lint_dir=
fi

fx_cleanup() {
	[ -n "${fx_lint_dir:-}" ] && : > "$fx_lint_dir/.done"
	[ -n "${FX_KEEP:-}" ] && return
	case ${FX_MATRIX:-} in
	*/cudawiz-matrix-today.$$.json) rm -f "$FX_MATRIX" ;;
	esac
	for d in ${fx_dirs:-}; do
		chmod -R u+rwx "$d" 2>/dev/null
		rm -rf "$d"
	done
}
trap fx_cleanup EXIT

fx_new() {
	FX=$(mktemp -d "$FX_TMP/cudawiz-fx.XXXXXX") || exit 99
	fx_dirs="${fx_dirs:-} $FX"
	FX_OUT=$FX.out.json
	fx_dirs="$fx_dirs $FX_OUT $FX.stderr"
	FX_ENV=
}

fx_dir() {
	mkdir -p "$FX$1"
}

fx_file() {
	mkdir -p "$(dirname "$FX$1")"
	if [ $# -ge 2 ]; then
		printf '%s\n' "$2" > "$FX$1"
	else
		cat > "$FX$1"
	fi
}

fx_link() {
	mkdir -p "$(dirname "$FX$2")"
	ln -sfn "$1" "$FX$2"
}

# Shared objects are compiled once per soname and copied after that.
fx_so() {
	fx_sodir=${FX_SOCACHE:-$FX_TMP/cudawiz-so-cache.$(id -u)}
	mkdir -p "$fx_sodir" "$(dirname "$FX$1")"
	fx_cached=$fx_sodir/$2
	if [ ! -s "$fx_cached" ]; then
		printf 'int cudawiz_fixture_%s(void) { return 1; }\n' \
		    "$(printf '%s' "$2" | tr -c 'A-Za-z0-9' '_')" |
		    $FIXTURE_CC -shared -fPIC -x c -o "$fx_cached.tmp.$$" \
		    -Wl,-soname,"$2" - || return 1
		mv -f "$fx_cached.tmp.$$" "$fx_cached"
	fi
	cp "$fx_cached" "$FX$1"
}

# Root reads every file whatever its mode, and CI runs as root, so the
# unreadable-file cases run cudawiz as nobody through setpriv(1).
fx_drop_privileges() {
	FX_DROP=
	[ "$(id -u)" = 0 ] || return 0
	if ! command -v setpriv >/dev/null 2>&1; then
		FX_DROP_WHY="running as root, and setpriv (Debian package: util-linux) is missing"
		return 1
	fi
	chmod 755 "$FX"
	FX_DROP="setpriv --reuid=65534 --regid=65534 --clear-groups --"
	if ! $FX_DROP sh -c 'test -x "$1" && test -r "$2/."' sh "$CUDAWIZ" "$FX" \
	    2>/dev/null; then
		FX_DROP=
		FX_DROP_WHY="running as root, and user 65534 cannot reach $FX or $CUDAWIZ"
		return 1
	fi
}

fx_keep_privileges() {
	FX_DROP=
}

# fx_doctor_env NAME=VALUE... [-- ARG...]: fx_doctor with exactly these
# variables, each NAME=VALUE one word, so values may hold spaces and quotes.
# fx_cmd_env WORDS N=V... [-- ARG...]: cudawiz WORDS (a command and its
# first options, one word list) on $FX with exactly these variables; stdout
# in $FX_OUT, stderr in $FX.stderr, the exit status in $FX_RC.
fx_cmd_env() {
	fx_words=$1
	shift
	fx_vars=
	fx_n=0
	# Each value goes through a numbered variable so eval never sees it.
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		fx_n=$((fx_n + 1))
		eval "fx_v$fx_n=\$1"
		fx_vars="$fx_vars \"\$fx_v$fx_n\""
		shift
	done
	[ "${1:-}" = -- ] && shift
	# A clean environment: these variables and what the sanitizers need.
	eval "env -i \${ASAN_OPTIONS:+ASAN_OPTIONS=\"\$ASAN_OPTIONS\"} \
	    \${UBSAN_OPTIONS:+UBSAN_OPTIONS=\"\$UBSAN_OPTIONS\"} \
	    LC_ALL=C $fx_vars \${FX_DROP:-} \"\$CUDAWIZ\" $fx_words --root \"\$FX\" \
	    \${FX_MATRIX:+--matrix \"\$FX_MATRIX\"} \"\$@\"" \
	    > "$FX_OUT" 2> "$FX.stderr"
	FX_RC=$?
}

# fx_lint_keep: keeps a copy of $FX_OUT for the fix lint (FX_LINT_DIR).
fx_lint_keep() {
	[ -n "${fx_lint_dir:-}" ] || return 0
	fx_lint_n=$((${fx_lint_n:-0} + 1))
	cp "$FX_OUT" "$fx_lint_dir/$1.$fx_lint_n.json" 2>/dev/null || :
}

fx_doctor_env() {
	fx_cmd_env "doctor --json" "$@"
	fx_lint_keep doctor
	if ! jq -e . "$FX_OUT" > /dev/null 2>&1; then
		diag "doctor did not print valid JSON (exit $FX_RC):"
		head -c 2000 "$FX_OUT" | sed 's/^/#   /'
		sed 's/^/#   stderr: /' "$FX.stderr" | head -n 20
	fi
}

# fx_doctor [ARG...]: with the variables in FX_ENV ("NAME=value" words).
fx_doctor() {
	# shellcheck disable=SC2086
	fx_doctor_env $FX_ENV -- "$@"
}

# fx_rchar: the bytes read by the processes this shell has waited for (the
# kernel adds a reaped child's rchar to its parent's), so that a test can
# bound what a run read by count, never by the time a loaded machine
# takes; empty where /proc/PID/io is not readable.
fx_rchar() {
	sed -n 's/^rchar: //p' "/proc/$$/io" 2>/dev/null
}

fx_jq() {
	jq -r "$1" "$FX_OUT" 2>/dev/null
}

fx_codes() {
	jq -r '.findings[].code' "$FX_OUT" 2>/dev/null | sort -u
}

# has_code CODE / lacks_code CODE: TAP checks on the last doctor run.
has_code() {
	if fx_codes | grep -qx "$1"; then
		tap_result 0 "${2:-finding $1}"
	else
		tap_result 1 "${2:-finding $1}"
		diag "codes: $(fx_codes | tr '\n' ' ')"
	fi
}

lacks_code() {
	if fx_codes | grep -qx "$1"; then
		tap_result 1 "${2:-no finding $1}"
		jq -c --arg c "$1" '.findings[] | select(.code == $c)' "$FX_OUT" |
		    head -c 1500 | sed 's/^/#   /'
	else
		tap_result 0 "${2:-no finding $1}"
	fi
}

# A healthy machine: one NVIDIA GPU bound to nvidia, a loaded module and
# matching userspace libraries, modules for the running kernel.
fx_healthy_gpu() {
	fx_file /proc/sys/kernel/osrelease "6.1.0-13-amd64"
	d=/sys/bus/pci/devices/0000:01:00.0
	fx_file $d/vendor 0x10de
	fx_file $d/device 0x2330
	fx_file $d/subsystem_vendor 0x10de
	fx_file $d/subsystem_device 0x16c1
	fx_file $d/class 0x030200
	fx_dir /sys/bus/pci/drivers/nvidia
	fx_link ../../drivers/nvidia $d/driver
	fx_file /proc/driver/nvidia/version "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.65.06  Sun Jul 27 07:09:14 UTC 2025
GCC version:  gcc version 12.2.0 (Debian 12.2.0-14)"
	fx_file /sys/module/nvidia/version 580.65.06
	fx_so /usr/lib/x86_64-linux-gnu/libcuda.so.580.65.06 libcuda.so.1
	fx_link libcuda.so.580.65.06 /usr/lib/x86_64-linux-gnu/libcuda.so.1
	fx_so /usr/lib/x86_64-linux-gnu/libnvidia-ml.so.580.65.06 libnvidia-ml.so.1
	fx_link libnvidia-ml.so.580.65.06 /usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1
	fx_file /lib/modules/6.1.0-13-amd64/updates/dkms/nvidia.ko ""
	fx_file /lib/modules/6.1.0-13-amd64/modules.dep "updates/dkms/nvidia.ko:"
	fx_file /etc/ld.so.conf "include /etc/ld.so.conf.d/*.conf"
	fx_file /etc/ld.so.conf.d/x86_64-linux-gnu.conf "/usr/lib/x86_64-linux-gnu"
}

# A CUDA toolkit at /usr/local/cuda-VERSION (VERSION like 12.4.1), with
# version.json, libcudart, the stub libcuda and bin/nvcc.
fx_toolkit() {
	tk=/usr/local/cuda-${1%.*}
	major=${1%%.*}
	case $major in
	11) cudart_so=libcudart.so.11.0 ;;
	*) cudart_so=libcudart.so.$major ;;
	esac
	fx_file $tk/version.json "{ \"cuda\": { \"name\": \"CUDA SDK\", \"version\": \"$1\" }, \"cuda_cudart\": { \"name\": \"CUDA Runtime (cudart)\", \"version\": \"$1\" } }"
	fx_so $tk/targets/x86_64-linux/lib/libcudart.so.$1 $cudart_so
	fx_link libcudart.so.$1 $tk/targets/x86_64-linux/lib/$cudart_so
	fx_link $cudart_so $tk/targets/x86_64-linux/lib/libcudart.so
	fx_so $tk/targets/x86_64-linux/lib/stubs/libcuda.so libcuda.so.1
	fx_link targets/x86_64-linux/lib $tk/lib64
	fx_file $tk/bin/nvcc "#!/bin/sh"
	chmod +x "$FX$tk/bin/nvcc"
}

# A working CUDA 13 machine: fx_healthy_gpu, the 13.0.0 toolkit linked as
# /usr/local/cuda and in ld.so.conf.d, and a /usr/bin.
fx_cuda13_machine() {
	fx_healthy_gpu
	fx_toolkit 13.0.0
	fx_link cuda-13.0 /usr/local/cuda
	fx_file /etc/ld.so.conf.d/cuda.conf "/usr/local/cuda-13.0/targets/x86_64-linux/lib"
	fx_dir /usr/bin
}

# fx_host NAME MACHINE_ID PRETTY_NAME: who the tree is (doctor --json's
# "host"): /proc/sys/kernel/hostname, /etc/machine-id and /etc/os-release
# (an empty argument leaves that file out), and a kernel release unless
# the tree has one.
fx_host() {
	if [ -n "$1" ]; then fx_file /proc/sys/kernel/hostname "$1"; fi
	if [ -n "$2" ]; then fx_file /etc/machine-id "$2"; fi
	if [ -n "$3" ]; then
		fx_file /etc/os-release "PRETTY_NAME=\"$3\"
ID=debian"
	fi
	if [ ! -e "$FX/proc/sys/kernel/osrelease" ]; then
		fx_file /proc/sys/kernel/osrelease 6.1.0-18-amd64
	fi
}

# fx_json_comparable FILE: FILE's JSON, sorted, without the time it was
# made (host.time: each run's own) nor the LD_PRELOAD that
# the valgrind gate's memcheck sets in a watched run (one run of a pair
# may be watched and the other native: tests/gates.mk); the fleet tests'
# base report and prom-atomic's pair use it too; htmlcheck.py's
# comparable() does the same for an HTML page's JSON block.
fx_json_comparable() {
	jq -S 'if ((.facts.env.LD_PRELOAD.value? // "") | test("/valgrind/"))
	    then .facts.env.LD_PRELOAD = {"entries": [], "set": false,
	    "value": null} | del(.spec.items["env.LD_PRELOAD"]) else . end |
	    del(.host.time, .host.time_unix)' "$1"
}
