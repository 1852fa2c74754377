#!/bin/sh
# cudawiz-verify against fake libcuda.so.1 libraries built here from
# tests/tools/fake_libcuda.c, one per way a driver can misbehave: crash,
# hang or exit() in cuInit, print to stdout, fail cuInit with a code,
# fail the JIT, compute wrong results, lack a function. Each time the
# helper's records say what happened (or, when it cannot, the process
# ends the way the parent knows how to report), and then the same fake
# goes through `cudawiz verify --json`, which finds it as the loader
# would (first on LD_LIBRARY_PATH) and must survive it.
. "$TESTS_SRCDIR/lib/tap.sh"

[ -x "$CUDAWIZ_HELPER" ] || skip_all "no helper at $CUDAWIZ_HELPER"
command -v jq > /dev/null 2>&1 || skip_all "jq is not installed"
[ -n "$FIXTURE_CC" ] || skip_all "FIXTURE_CC is not set"
command -v timeout > /dev/null 2>&1 || skip_all "no timeout(1)"

W=$(mktemp -d "$FX_TMP/helper-fake.XXXXXX") || exit 99
trap 'rm -rf "$W"' EXIT

# A sanitizer build would turn the fake's SIGSEGV into its own report and
# exit status; the test is about the signal reaching the parent.
NO_SEGV_HANDLER="${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0"

fake() {	# NAME MODE [CODE]: $W/NAME/libcuda.so.1
	mkdir -p "$W/$1"
	$FIXTURE_CC -shared -fPIC -O1 -o "$W/$1/libcuda.so.1" \
	    -DFAKE_MODE="FAKE_$2" ${3:+-DFAKE_CODE=$3} \
	    "$TESTS_SRCDIR/tools/fake_libcuda.c" -lm 2> "$W/cc.err" || {
		cat "$W/cc.err" >&2
		echo "Bail out! cannot build the fake libcuda ($2)"
		exit 99
	}
}

for m in "good GOOD" "wrong WRONG" "segv SEGV" "hang HANG" "exit EXIT" \
    "stdout STDOUT" "init100 INIT 100" "init999 INIT 999" "init804 INIT 804" \
    "jit222 JIT 222" "jit218 JIT 218" "jitold JIT_OLD" "atexit ATEXIT" \
    "nolaunch NOLAUNCH"; do
	# shellcheck disable=SC2086
	fake $m
done

# run NAME [ARGS...]: the helper on fake NAME; records in $W/out, stderr
# in $W/err, exit status in $rc.
run() {
	name=$1
	shift
	ASAN_OPTIONS=$NO_SEGV_HANDLER timeout 10 "$CUDAWIZ_HELPER" driver \
	    --lib "$W/$name/libcuda.so.1" "$@" > "$W/out" 2> "$W/err"
	rc=$?
}

# rec CHECK JQ: JQ of the first record whose check is CHECK.
rec() {
	jq -c --arg c "$1" "select(.check == \$c) | $2" "$W/out" 2>/dev/null |
	    head -n 1 | sed 's/^"\(.*\)"$/\1/'
}

last_check() { tail -n 1 "$W/out" | jq -r .check 2>/dev/null; }
last_step() { jq -r 'select(.check == "step") | .name' "$W/out" | tail -n 1; }
all_json() { jq -e . "$W/out" > /dev/null 2>&1; }

# --- a driver that works ---------------------------------------------
run good
is "$rc" 0 "good: exit 0"
ok "good: every line is JSON" all_json
is "$(head -n 1 "$W/out" | jq -r .check)" begin "good: begin first"
is "$(last_check)" end "good: end last"
is "$(rec end .ok)" true "good: end ok"
is "$(rec symbols '[.versioned.cuMemAlloc, .versioned.cuCtxCreate, .versioned.cuDeviceGetUuid] | join(" ")')" \
    "cuMemAlloc_v2 cuCtxCreate_v2 cuDeviceGetUuid_v2" \
    "good: versioned symbols bound first"
is "$(rec init .ok)" true "good: init ok"
is "$(rec driver_version .version)" 12080 "good: driver_version"
is "$(rec device_count .count)" 1 "good: one device"
is "$(jq -r 'select(.check == "device") | .name' "$W/out")" \
    "$(printf 'Fake GPU "test\001"')" "good: the device's name, quote and control byte intact"
is "$(rec device '[.cc, .sm_count, .memory_total, .pci_bus_id, .uuid] | map(tostring) | join(" ")')" \
    "8.6 1 83886080 0000:01:00.0 GPU-00010203-0405-0607-0809-0a0b0c0d0e0f" \
    "good: cc, SMs, memory, PCI bus id, UUID as nvidia-smi spells it"
is "$(rec context '[.ok, (.ms | type)] | join(" ")')" "true number" "good: context, timed"
is "$(rec memory '[.free, .total] | join(" ")')" "67108864 83886080" "good: memory"
is "$(rec ptx_jit '[.ok, .variant, (.tried | join(","))] | join(" ")')" \
    "true ptx70_sm50 ptx70_sm50" "good: the newest PTX variant loads"
is "$(rec saxpy '[.ok, .n, .bad, .max_error] | join(" ")')" "true 2097152 0 0" \
    "good: saxpy right (2^26 cut to fit a quarter of the free memory)"
is "$(rec copy_bandwidth '[.ok, (.kernel_gbps > 0), (.memcpy_gbps > 0), (.ratio > 0)] | join(" ")')" \
    "true true true true" "good: copy_bandwidth, kernel next to cuMemcpyDtoD"
is "$(rec fma '[.ok, (.gflops > 0), .bad] | join(" ")')" "true true 0" "good: fma"
is "$(rec pinned '[.ok, (.h2d_gbps > 0), (.d2h_gbps > 0)] | join(" ")')" "true true true" \
    "good: pinned copies both ways"
is "$(rec end '[(.ms | type), (.context_ms | type)] | join(" ")')" "number number" \
    "good: end has ms and context_ms"
is "$(jq -r 'select(.check == "step") | .name' "$W/out" | sort | uniq -c | awk '$1 > 1 && $2 == "cuLaunchKernel"' | wc -l)" \
    1 "good: steps name every call (cuLaunchKernel in each check)"

run good --quick
is "$(rec saxpy '[.ok, .n] | join(" ")')" "true 1048576" "--quick: a smaller saxpy"
is "$(jq -r 'select(.check == "skip") | "\(.what):\(.why)"' "$W/out" | tr '\n' ' ')" \
    "copy_bandwidth:--quick fma:--quick pinned:--quick " "--quick: the measurements are skips"
is "$(rec end .ok)" true "--quick: end ok"

run good --device 1
is "$(rec skip '[.what, .device, .why] | join("|")')" \
    "device|1|there is no device 1: cuDeviceGetCount found 1" "--device 1 of 1: a skip"
is "$(rec end .ok)" false "... and the run failed"
"$CUDAWIZ_HELPER" driver --device x > /dev/null 2>&1
is "$?" 2 "--device x: usage error"
"$CUDAWIZ_HELPER" runtime > "$W/out" 2>&1
is "$?:$(grep -c check "$W/out")" "2:0" "runtime without --lib: usage error, no records"
"$CUDAWIZ_HELPER" fly > /dev/null 2>&1
is "$?" 2 "an unknown mode: usage error"

# --- wrong results ---------------------------------------------------
run wrong --quick
is "$rc" 0 "wrong: exit 0"
is "$(rec saxpy '[.ok, (.bad > 0), .max_error] | join(" ")')" "false true 0.5" \
    "wrong: saxpy ok:false, elements off, the largest error"
is "$(rec end .ok)" false "wrong: end ok:false"

# --- crash, hang, exit -------------------------------------------------
run segv
is "$rc" 139 "segv: killed by SIGSEGV (128+11)"
is "$(last_step)" cuInit "segv: the last step is cuInit"
is "$(rec end .check)" "" "segv: no end record"
ok "segv: what it wrote is whole records" all_json

t0=$(date +%s)
ASAN_OPTIONS=$NO_SEGV_HANDLER timeout 2 "$CUDAWIZ_HELPER" driver \
    --lib "$W/hang/libcuda.so.1" > "$W/out" 2> "$W/err"
rc=$?
is "$rc" 124 "hang: still in cuInit when timeout(1) stops it"
is "$(last_step)" cuInit "hang: the last step is cuInit"
ok "hang: ... within seconds" [ $(($(date +%s) - t0)) -lt 10 ]

run exit
is "$rc" 3 "exit: the library's exit(3) is the status"
is "$(last_step)" cuInit "exit: the last step is cuInit"
is "$(rec end .check)" "" "exit: no end record"

# --- stdout ------------------------------------------------------------
run stdout --quick
is "$rc" 0 "stdout: exit 0"
ok "stdout: every line on stdout is a record" all_json
is "$(grep -c -e 'fake libcuda' -e 'fake constructor' "$W/out")" 0 "stdout: nothing the library printed is on stdout"
like "$(cat "$W/err")" "cuInit says hello" "stdout: ... it went to stderr (stdio)"
like "$(cat "$W/err")" "not a record" "stdout: ... and write(2) to fd 1 too"
is "$(jq -r 'select(.check == "end") | .ok' "$W/out" | tr '\n' ' ')" "true " \
    "stdout: one end record, the helper's"
is "$(rec init .ok)" true "stdout: the fake init record on fd 1 is not taken"

# --- cuInit failures ---------------------------------------------------
run init100
is "$(rec init '[.ok, .code, .name, .message] | join("|")')" \
    "false|100|CUDA_ERROR_NO_DEVICE|no CUDA-capable device is detected" \
    "cuInit 100: code, the library's name and message"
is "$(rec skip '[.what, .why] | join("|")')" "device_count|cuInit failed: CUDA_ERROR_NO_DEVICE" \
    "cuInit 100: the device checks are a skip, with the reason"
is "$(last_check):$(rec end .ok):$rc" "end:false:0" "cuInit 100: the run still ends"
run init999
is "$(rec init '[.code, .name, .message] | map(tostring) | join("|")')" \
    "999|CUDA_ERROR_UNKNOWN|null" \
    "cuInit 999: cuGetErrorName fails, the helper's table names it"
run init804
is "$(rec init '[.code, .name] | join("|")')" \
    "804|CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE" "cuInit 804"

# --- the JIT -------------------------------------------------------------
run jit222 --quick
is "$(rec ptx_jit '[.ok, .code, .name, (.tried | join(","))] | map(tostring) | join("|")')" \
    "false|222|CUDA_ERROR_UNSUPPORTED_PTX_VERSION|ptx70_sm50,ptx60_sm30,ptx43_sm20" \
    "JIT 222: every variant tried, the code named"
like "$(rec ptx_jit .log)" "ptx70_sm50: ptxas application ptx input.*Unsupported \.version" \
    "JIT 222: the JIT's own log, per variant"
is "$(jq -r 'select(.check == "skip" and .what == "saxpy") | .why' "$W/out")" \
    "the verification kernels did not load (ptx_jit)" "JIT 222: saxpy is a skip"
is "$(last_check):$rc" "end:0" "JIT 222: the run still ends"
run jit218 --quick
is "$(rec ptx_jit '[.ok, .code, .name] | map(tostring) | join("|")')" \
    "false|218|CUDA_ERROR_INVALID_PTX" "JIT 218: CUDA_ERROR_INVALID_PTX"
run jitold --quick
is "$(rec ptx_jit '[.ok, .variant, (.tried | join(","))] | map(tostring) | join("|")')" \
    "true|ptx60_sm30|ptx70_sm50,ptx60_sm30" \
    "a JIT without ISA 7.0: the older variant loads"
is "$(rec saxpy .ok)" true "... and its kernels run"

# --- the end of the process -------------------------------------------
run atexit --quick
is "$rc:$(last_check)" "0:end" "a library whose atexit handler crashes: _exit(0) after end"

# --- a damaged library --------------------------------------------------
run nolaunch
is "$(rec symbols '[.ok, (.missing | join(","))] | map(tostring) | join("|")')" \
    "false|cuLaunchKernel" "no cuLaunchKernel: symbols ok:false, missing named"
is "$(rec skip .what):$(last_check):$rc" "init:end:0" "... init is a skip, the run ends"
ASAN_OPTIONS=$NO_SEGV_HANDLER "$CUDAWIZ_HELPER" driver --lib "$W/none/libcuda.so.1" > "$W/out" 2>&1
is "$(rec load '[.ok, (.error | test("No such file"))] | map(tostring) | join("|")'):$(last_check)" \
    "false|true:end" "a library that does not exist: load ok:false, dlerror's words"
"$CUDAWIZ_HELPER" driver --lib "$TESTS_SRCDIR/tools/fake_libcuda.c" > "$W/out" 2>&1
is "$(rec load .ok):$(rec end .ok)" "false:false" "a file that is no library: load ok:false"

# --- the parent ----------------------------------------------------------
if [ ! -x "$CUDAWIZ" ]; then
	skip_parent="cudawiz is not built ($CUDAWIZ)"
elif [ -e /sys/module/nvidia ]; then
	skip_parent="this machine has an NVIDIA driver loaded"
fi

# pv NAME [ARGS]: cudawiz verify --json with fake NAME first on
# LD_LIBRARY_PATH, as a user's shell would have it.
pv() {
	name=$1
	shift
	env -i PATH=/usr/bin:/bin HOME=/nonexistent ASAN_OPTIONS="$NO_SEGV_HANDLER" \
	    UBSAN_OPTIONS="${UBSAN_OPTIONS-}" LD_LIBRARY_PATH="$W/$name" \
	    CUDAWIZ_HELPER="$CUDAWIZ_HELPER" "$CUDAWIZ" verify --json "$@" \
	    > "$W/p.json" 2> "$W/p.err"
	prc=$?
}
drv() { jq -r ".verify.runs[] | select(.kind == \"driver\") | $1" "$W/p.json" 2>/dev/null; }
codes() { jq -r '[.findings[].code] | unique | join(" ")' "$W/p.json" 2>/dev/null; }

parent_checks() {
	pv good --quick
	is "$(drv '[.lib, .outcome] | join(" ")')" "$W/good/libcuda.so.1 done" \
	    "parent: the fake first on LD_LIBRARY_PATH is the driver checked, done"
	is "$(drv '.records[] | select(.check == "saxpy") | .ok')" true \
	    "parent: the helper's records reach the report"
	pv wrong --quick
	is "$(drv .outcome):$(codes | grep -o KERNEL_FAILED)" "done:KERNEL_FAILED" \
	    "parent: wrong results are KERNEL_FAILED"
	is "$prc" 1 "parent: ... exit 1"
	pv segv
	is "$(drv '[.outcome, .signal, .last_step] | join(" ")')" "signalled 11 cuInit" \
	    "parent: a driver crashing in cuInit: signalled 11 in cuInit"
	like "$(codes)" VERIFY_CRASHED "parent: ... VERIFY_CRASHED, cudawiz survives (exit $prc)"
	pv hang --timeout 1
	is "$(drv '[.outcome, .last_step] | join(" ")')" "timed_out cuInit" \
	    "parent: a driver hanging in cuInit is stopped by the timeout"
	like "$(codes)" VERIFY_TIMEOUT "parent: ... VERIFY_TIMEOUT"
	pv exit
	is "$(drv '[.outcome, .exit_status, .last_step] | join(" ")')" "exited 3 cuInit" \
	    "parent: a driver calling exit(3) in cuInit: exited 3"
	like "$(codes)" VERIFY_CRASHED "parent: ... VERIFY_CRASHED"
	pv stdout --quick
	is "$(drv '[.outcome, .garbage_lines] | map(tostring) | join(" ")')" "done 0" \
	    "parent: a driver printing to stdout: done, no garbage"
	pv init804
	like "$(codes)" FORWARD_COMPAT_UNSUPPORTED "parent: cuInit 804 is FORWARD_COMPAT_UNSUPPORTED"
	pv init999
	is "$(drv '.records[] | select(.check == "init") | .name')" CUDA_ERROR_UNKNOWN \
	    "parent: cuInit 999 arrives named"
	pv jit222 --quick
	like "$(codes)" PTX_JIT_FAILED "parent: a JIT failing with 222 is PTX_JIT_FAILED"
	like "$(jq -r '.findings[] | select(.code == "PTX_JIT_FAILED") | .evidence | join("\n")' "$W/p.json")" \
	    "Unsupported \.version" "parent: ... with the JIT log as evidence"
}
if [ -n "${skip_parent-}" ]; then
	for t in "a fake first on LD_LIBRARY_PATH" "wrong results" "exit 1" \
	    "crash in cuInit" "VERIFY_CRASHED" "hang" "VERIFY_TIMEOUT" "exit(3)" \
	    "VERIFY_CRASHED" "printing to stdout" "804" "999" "JIT 222" "JIT log"; do
		skip "parent: $t" "$skip_parent"
	done
else
	parent_checks
fi

done_testing
