#!/bin/sh
# `cudawiz verify` and doctor's verification as commands: stand-in helpers
# (shell scripts speaking the protocol of docs/VERIFY.md, named by
# CUDAWIZ_HELPER) that work, crash, hang or are missing, and what the
# report, the findings and the exit status make of each. The real helper
# against real and fake libraries is tests/cli/verify-real.sh.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"

W=$(mktemp -d "$FX_TMP/verify-cli.XXXXXX") || exit 99
trap 'rm -rf "$W"; fx_cleanup' EXIT

# helper NAME BODY: a stand-in helper; $1 is the mode it was run in.
helper() {
	printf '#!/bin/sh\n%s\n' "$2" > "$W/$1"
	chmod +x "$W/$1"
}

helper ok '
echo "{\"check\":\"begin\",\"mode\":\"$1\",\"helper\":\"stand-in\",\"pid\":$$}"
case $1 in
driver)
	echo "{\"check\":\"step\",\"name\":\"cuInit\"}"
	echo "{\"check\":\"init\",\"ok\":true}"
	echo "{\"check\":\"driver_version\",\"version\":13000}"
	echo "{\"check\":\"device\",\"device\":0,\"name\":\"Stand-in H100\",\"cc\":\"9.0\",\"sm_count\":132}"
	echo "{\"check\":\"ptx_jit\",\"device\":0,\"ok\":true,\"variant\":\"ptx70_sm50\"}"
	echo "{\"check\":\"saxpy\",\"device\":0,\"ok\":true,\"bad\":0,\"max_error\":0}"
	echo "{\"check\":\"copy_bandwidth\",\"device\":0,\"ok\":true,\"kernel_gbps\":2900.5,\"memcpy_gbps\":3100}"
	echo "{\"check\":\"memory\",\"device\":0,\"free\":85000000000,\"total\":85520809984}" ;;
runtime)
	echo "{\"check\":\"runtime_version\",\"version\":13000}"
	echo "{\"check\":\"init\",\"ok\":true}" ;;
cudnn)
	echo "{\"check\":\"cudnn_version\",\"version\":91900,\"cudart_version\":13000}"
	echo "{\"check\":\"cudnn_create\",\"ok\":true}" ;;
esac
# The arguments and environment it got, for the checks below.
echo "{\"check\":\"args\",\"argv\":\"$*\",\"llp\":\"${LD_LIBRARY_PATH-unset}\",\"cache\":\"${CUDA_CACHE_DISABLE-}\",\"preload\":\"${LD_PRELOAD-unset}\",\"secret\":\"${CW_SECRET-unset}\"}"
echo "{\"check\":\"end\",\"ok\":true,\"ms\":1}"'

helper segv 'echo "{\"check\":\"begin\"}"; echo "{\"check\":\"step\",\"name\":\"cuInit\"}"; kill -SEGV $$'
helper hang 'echo "{\"check\":\"begin\"}"; echo "{\"check\":\"step\",\"name\":\"cuCtxCreate\"}"; sleep 60'

run() {	# run [VAR=VAL...] -- ARGS: cudawiz with a clean environment
	env_args=
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		env_args="$env_args $1"
		shift
	done
	shift
	# shellcheck disable=SC2086
	out=$(env -i PATH=/usr/bin:/bin HOME=/nonexistent $env_args "$CUDAWIZ" "$@" 2>"$W/err")
	rc=$?
}

run CUDAWIZ_HELPER="$W/ok" CW_SECRET=x LD_PRELOAD=/nonexistent.so -- verify --json
is "$rc" 0 "verify with a helper whose checks all pass: exit 0"
echo "$out" > "$W/out.json"
is "$(jq -r .schema "$W/out.json")" cudawiz/verify/1 "schema cudawiz/verify/1"
is "$(jq -r .verify.state "$W/out.json")" ran "state: ran"
is "$(jq -r .verify.helper "$W/out.json")" "$W/ok" "the helper named by CUDAWIZ_HELPER"
is "$(jq -r '.verify.runs[0] | [.kind, .outcome] | join(" ")' "$W/out.json")" "driver done" \
    "the driver is checked first, and the run is done"
is "$(jq -r '.verify.runs[0].records[] | select(.check == "device") | .name' "$W/out.json")" \
    "Stand-in H100" "records keep the helper's fields"
is "$(jq -r '.verify.runs[0].records[] | select(.check == "copy_bandwidth") | .kernel_gbps' "$W/out.json")" \
    "2900.5" "... numbers as numbers"
is "$(jq -r '.verify.runs[0].records[] | select(.check == "args") | .argv' "$W/out.json")" \
    "driver --lib $(jq -r '.verify.runs[0].lib' "$W/out.json")" \
    "the helper gets: MODE --lib LIBRARY (not --quick: verify measures)"
is "$(jq -r '[.verify.runs[].records[] | select(.check == "args") | .cache] | unique | join(" ")' "$W/out.json")" \
    1 "CUDA_CACHE_DISABLE=1: the JIT really runs"
is "$(jq -r '[.verify.runs[].records[] | select(.check == "args") | .preload, .secret] | unique | join(" ")' "$W/out.json")" \
    unset "LD_PRELOAD and other variables of the user stay out"
is "$(jq -r '[.verify.runs[].records | length > 0] | all' "$W/out.json")" true \
    "every run has records"
if [ -e /usr/local/cuda/lib64/libcudart.so ] || [ -e /usr/local/cuda/lib/libcudart.so ]; then
	is "$(jq -r '[.verify.runs[] | select(.kind == "runtime") | .ld_library_path == (.lib | sub("/[^/]*$"; ""))] | all' "$W/out.json")" \
	    true "a runtime's helper gets exactly its directory as LD_LIBRARY_PATH"
	is "$(jq -r '[.verify.runs[] | select(.kind == "runtime")] | length > 0' "$W/out.json")" \
	    true "this machine's toolkit runtime is checked"
else
	skip "a runtime's helper gets exactly its directory" "no CUDA toolkit in /usr/local/cuda"
	skip "this machine's toolkit runtime is checked" "no CUDA toolkit in /usr/local/cuda"
fi
is "$(jq '.findings | length' "$W/out.json")" 0 "no findings"

run CUDAWIZ_HELPER="$W/ok" -- verify
is "$rc" 0 "text: exit 0"
like "$out" "^Live verification" "text: the section heading"
like "$out" "driver \(CUDA 13\.0\).*works" "text: the driver works, with its CUDA level"
like "$out" "device 0  Stand-in H100  cc 9\.0  132 SMs" "text: the device line"
like "$out" "copy 2900 GB/s \(94% of cuMemcpyDtoD's 3100\)" "text: bandwidth against cuMemcpyDtoD"
like "$out" "No problems found" "text: no problems"

run CUDAWIZ_HELPER="$W/segv" -- verify --json
is "$rc" 1 "a helper killed by SIGSEGV: exit 1, cudawiz survives"
is "$(echo "$out" | jq -r '.verify.runs[0] | [.outcome, .signal, .last_step] | join(" ")')" \
    "signalled 11 cuInit" "the run: signalled, SIGSEGV, in cuInit"
is "$(echo "$out" | jq -r '[.findings[].code] | unique | join(" ")')" VERIFY_CRASHED \
    "VERIFY_CRASHED"
run CUDAWIZ_HELPER="$W/segv" -- verify
like "$out" "CRASHED \(SIGSEGV in cuInit\)" "text: CRASHED (SIGSEGV in cuInit)"

t0=$(date +%s)
run CUDAWIZ_HELPER="$W/hang" -- verify --json --timeout 0.5
t1=$(date +%s)
is "$rc" 1 "a hanging helper: exit 1"
ok "... stopped by --timeout ($((t1 - t0)) s for every run)" [ $((t1 - t0)) -lt 30 ]
is "$(echo "$out" | jq -r '.verify.runs[0] | [.outcome, .last_step] | join(" ")')" \
    "timed_out cuCtxCreate" "the run: timed out in cuCtxCreate"
is "$(echo "$out" | jq -r '.verify.timeout_s')" 0.5 "the timeout is in the report"
like "$(echo "$out" | jq -r '.findings[] | select(.code == "VERIFY_TIMEOUT") | .detail')" \
    "within 0\.5 seconds" "VERIFY_TIMEOUT says how long it waited"

run CUDAWIZ_HELPER="$W/missing" -- verify
is "$rc" 2 "no helper: exit 2"
like "$(cat "$W/err")" "CUDAWIZ_HELPER=$W/missing" "... saying which helper is missing"

fx_new
run CUDAWIZ_HELPER="$W/ok" -- verify --json --root "$FX"
is "$rc" 0 "verify under --root: exit 0"
is "$(echo "$out" | jq -r '[.verify.state, (.verify.runs | length)] | join(" ")')" "skipped 0" \
    "... nothing is run"
like "$(echo "$out" | jq -r .verify.why)" "--root" "... and it says why"

# doctor: verification only with a driver loaded (none on a build machine).
run CUDAWIZ_HELPER="$W/ok" -- doctor --json --root "$FX"
is "$(echo "$out" | jq -r .facts.verify.state)" not_run "doctor under --root: verification not run"
if [ ! -e /sys/module/nvidia ]; then
	run CUDAWIZ_HELPER="$W/segv" -- doctor --json
	is "$(echo "$out" | jq -r .facts.verify.state)" not_run \
	    "doctor with no driver loaded: not run (a crashing helper is never started)"
	like "$(echo "$out" | jq -r .facts.verify.why)" "no NVIDIA driver" "... and it says why"
	run CUDAWIZ_HELPER="$W/segv" -- doctor
	like "$out" "Live verification
  not run: no NVIDIA driver is loaded" "doctor's text says so in its section"
else
	skip "doctor with no driver loaded" "this machine has an NVIDIA driver loaded"
	skip "... and it says why" "this machine has an NVIDIA driver loaded"
	skip "doctor's text says so" "this machine has an NVIDIA driver loaded"
fi
run -- doctor --json --no-verify --root "$FX"
is "$rc:$(echo "$out" | jq -r .facts.verify.why)" "0:--no-verify" "doctor --no-verify says so"

# Options in the wrong place are usage errors.
for args in "why libc.so.6 --no-verify" "doctor --quick" "why libc.so.6 --timeout 3" \
    "verify --timeout abc" "verify --timeout 0" "verify extra"; do
	# shellcheck disable=SC2086
	run -- $args
	is "$rc" 2 "cudawiz $args: usage error"
done

done_testing
