#!/bin/sh
# verify on Windows (issue 23), under Wine: cudawiz-verify.exe built with
# mingw-w64 from the helper's own sources (src/helper/, with its Windows
# layer win.c), run through the Windows runner (src/verify/spawn_win.c,
# driven by tests/win/verify-run.c) against fake nvcuda.dll files built
# from tests/tools/fake_libcuda.c: one that works, one that crashes in
# cuInit (an access violation), one that hangs there, one that calls
# ExitProcess(3), one that prints to stdout, one that leaves a process
# behind, one that imports from a DLL beside it; a fake cudart64_12.dll
# and cudnn64_9.dll (tests/win/); and a DLL that is not there. The
# runner must say what happened to each and go on. Needs
# mingw-w64, Wine and jq (Debian packages gcc-mingw-w64-x86-64, wine64,
# jq); skips without.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fx_wine.sh"

MINGW=x86_64-w64-mingw32-gcc
wine_find
command -v "$MINGW" >/dev/null 2>&1 ||
    skip_all "mingw-w64 is not installed (Debian package gcc-mingw-w64-x86-64)"
command -v jq >/dev/null 2>&1 || skip_all "jq is not installed"
SRC=$TESTS_SRCDIR/../src
# How long the runner lets the hanging fake hang; the others get a wait
# no healthy run comes near, so only the hang is reported as a timeout.
HANG_MS=3000
RUN_MS=120000

work=$(mktemp -d "$FX_TMP/verify-wine.XXXXXX") || exit 99
export WINEPREFIX="$work/prefix" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
# Wine's server outlives the clients: stopped on every way out, so no
# process holds the harness's pipes.
trap '"$WINESERVER" -k >/dev/null 2>&1; rm -rf "$work"' EXIT

# The helper's config.h and commit.h, as the Linux build makes them;
# mingw's C99 stdio, for the helper's %zu and %lld.
mkdir -p "$work/inc/src" "$work/sp ace é"
printf '#define PACKAGE_VERSION "wine-test"\n#define __USE_MINGW_ANSI_STDIO 1\n' \
    > "$work/inc/config.h"
printf '#define CUDAWIZ_COMMIT "none"\n' > "$work/inc/src/commit.h"
cc() { "$MINGW" -std=c11 -O2 -Wall -I"$work/inc" -I"$SRC" "$@" 2>>"$work/cc.err"; }
built=0
cc -o "$work/cudawiz-verify.exe" "$SRC"/helper/main.c "$SRC"/helper/common.c \
    "$SRC"/helper/jsonl.c "$SRC"/helper/errnames.c "$SRC"/helper/ptx.c \
    "$SRC"/helper/driver.c "$SRC"/helper/runtime.c "$SRC"/helper/cudnn.c \
    "$SRC"/helper/win.c -lm -lshell32 &&
    cc -municode -o "$work/verify-run.exe" "$TESTS_SRCDIR/win/verify-run.c" \
    "$SRC/verify/spawn_win.c" -lshell32 && built=1
# A fake that imports cw_dep from a sibling DLL, as cuDNN's DLLs do.
mkdir -p "$work/sib"
cc -shared -o "$work/sib/cwdep.dll" -Wl,--out-implib,"$work/cwdep.dll.a" \
    "$TESTS_SRCDIR/win/depdll.c" &&
    cc -shared -DFAKE_MODE=FAKE_GOOD -o "$work/sib/nvcuda.dll" \
    "$TESTS_SRCDIR/tools/fake_libcuda.c" "$TESTS_SRCDIR/win/needdep.c" \
    "$work/cwdep.dll.a" || built=0
# A cudart64_12.dll and, in a directory of its own with the sibling, a
# cudnn64_9.dll that imports from it.
mkdir -p "$work/rt" "$work/dnn"
[ "$built" = 1 ] && cc -shared -o "$work/rt/cudart64_12.dll" \
    "$TESTS_SRCDIR/win/fake_cudart.c" &&
    cp "$work/sib/cwdep.dll" "$work/dnn/" &&
    cc -shared -o "$work/dnn/cudnn64_9.dll" "$TESTS_SRCDIR/win/fake_cudnn.c" \
    "$TESTS_SRCDIR/win/needdep.c" "$work/cwdep.dll.a" || built=0
for m in GOOD SEGV HANG EXIT STDOUT SPAWN; do
	[ "$built" = 1 ] && cc -shared -DFAKE_MODE="FAKE_$m" -o "$work/fake_$m.dll" \
	    "$TESTS_SRCDIR/tools/fake_libcuda.c" || built=0
done
[ "$built" = 1 ] && cp "$work/fake_GOOD.dll" "$work/sp ace é/nvcuda.dll" || built=0
if [ "$built" != 1 ]; then
	sed 's/^/# /' "$work/cc.err"
	echo "Bail out! mingw-w64 could not build the helper, the runner or the fakes"
	exit 99
fi
ok "mingw-w64 built cudawiz-verify.exe, verify-run.exe and the fake DLLs" true

# The prefix (about 10 s); the server kept up meanwhile, its output away
# from the harness.
wine_prefix

# A path here as Windows names it: Wine's Z: is the root.
winpath() { printf 'Z:%s' "$1" | tr / '\\'; }
HELPER=$(winpath "$work/cudawiz-verify.exe")

# vrun MS ARGS...: verify-run.exe; its report in $work/out (the outcome
# line, the stdout line, the records), the helpers' stderr (and Wine's
# crash report) in $work/err.
vrun() {
	ms=$1
	shift
	"$WINE" "$work/verify-run.exe" "$ms" "$@" >"$work/out.raw" \
	    2>"$work/err" </dev/null
	vrc=$?
	tr -d '\r' <"$work/out.raw" >"$work/out"
	sed -n '3,$p' "$work/out" >"$work/recs"
}
outcome() { sed -n 1p "$work/out"; }
rec() {		# CHECK JQ: JQ of the first record whose check is CHECK
	jq -c --arg c "$1" "select(.check == \$c) | $2" "$work/recs" \
	    2>/dev/null | head -n 1 | sed 's/^"\(.*\)"$/\1/'
}
raw() {		# CHECK KEY: the first CHECK record's string KEY, unescaped
	jq -r --arg c "$1" "select(.check == \$c) | .$2" "$work/recs" \
	    2>/dev/null | head -n 1
}
last_step() { jq -r 'select(.check == "step") | .name' "$work/recs" | tail -n 1; }
checks() { jq -r 'select(.check != "step") | .check' "$work/recs" | tr '\n' ' '; }

# --version, through the runner.
vrun "$RUN_MS" "$HELPER" --version
is "$(outcome)" "exited 0" "--version: exit code 0"
like "$(cat "$work/recs")" '^cudawiz-verify wine-test \(commit none\)$' \
    "--version: the helper's name and version"

# A working driver: the records a working driver gives, in order.
good=$(winpath "$work/fake_GOOD.dll")
vrun "$RUN_MS" "$HELPER" driver --lib "$good" --quick
is "$(outcome)" "exited 0" "good fake: exit code 0"
ok "good fake: every record is JSON" sh -c 'jq -e . "$1" >/dev/null' sh "$work/recs"
ok "good fake: records end in \\n, not \\r\\n" \
    sh -c '! grep -q "$(printf "\r")" "$1"' sh "$work/out.raw"
is "$(checks)" "begin load symbols init driver_version device_count device context memory ptx_jit saxpy skip skip skip end " \
    "good fake: begin, load ... saxpy, the --quick skips, end"
is "$(rec load .ok),$(raw load path)" "true,$good" \
    "good fake: load ok, path from GetModuleFileNameW"
is "$(rec symbols .missing)" "[]" "good fake: every required function bound"
is "$(rec init .ok),$(rec driver_version .version),$(rec device_count .count)" \
    "true,12080,1" "good fake: cuInit, the driver's version, one device"
is "$(rec device .name),$(rec device .cc),$(rec device .uuid)" \
    'Fake GPU \"test\u0001\",8.6,GPU-00010203-0405-0607-0809-0a0b0c0d0e0f' \
    "good fake: the device's name, compute capability and UUID"
is "$(rec saxpy .ok),$(rec saxpy .bad),$(rec end .ok)" "true,0,true" \
    "good fake: saxpy right, the run ok"

# The same records as the Linux helper's from the same fake's source:
# one helper, two systems.
if [ -x "${CUDAWIZ_HELPER:-}" ] && [ -n "${FIXTURE_CC:-}" ] &&
    $FIXTURE_CC -shared -fPIC -O1 -DFAKE_MODE=FAKE_GOOD -o "$work/libcuda.so.1" \
    "$TESTS_SRCDIR/tools/fake_libcuda.c" -lm 2>>"$work/cc.err"; then
	"$CUDAWIZ_HELPER" driver --lib "$work/libcuda.so.1" --quick \
	    >"$work/linux.recs" 2>/dev/null
	strip='del(.pid, .helper, .ms, .lib, .path, .context_ms)'
	is "$(jq -c "$strip" "$work/recs" | md5sum)" \
	    "$(jq -c "$strip" "$work/linux.recs" | md5sum)" \
	    "good fake: the same records as the Linux helper's (but for pid, version, times, paths)"
else
	skip "good fake: the same records as the Linux helper's" \
	    "no Linux helper or no FIXTURE_CC"
fi

# The driver in a directory with a blank and a non-ASCII letter: the
# command line quoted for CommandLineToArgvW, argv taken as UTF-8, the
# path handed to LoadLibraryExW as UTF-16.
odd=$(winpath "$work/sp ace é/nvcuda.dll")
vrun "$RUN_MS" "$HELPER" driver --lib "$odd" --quick
is "$(outcome),$(rec load .ok),$(raw load path),$(rec end .ok)" \
    "exited 0,true,$odd,true" "a path with a blank and an é: loaded, the run ok"
# A DLL that imports from its own directory: loaded by its absolute
# path with LOAD_WITH_ALTERED_SEARCH_PATH, that directory is searched
# (the standard search would not find cwdep.dll and fail with 126); so
# with forward slashes, which the flag does not take.
sib=$(winpath "$work/sib/nvcuda.dll")
vrun "$RUN_MS" "$HELPER" driver --lib "$sib" --quick
is "$(outcome),$(rec load .ok),$(raw load error),$(rec end .ok)" "exited 0,true,null,true" \
    "a DLL importing a sibling: loaded by its absolute path, the run ok"
vrun "$RUN_MS" "$HELPER" driver --lib "$(printf %s "$sib" | tr '\\' /)" --quick
is "$(outcome),$(rec load .ok),$(raw load path)" "exited 0,true,$sib" \
    "the same with forward slashes: loaded, from the same file"

is "$("$WINE" "$work/verify-run.exe" --quote 'a b' '' 'a\b' 'a\"b' 'end\' '"' \
    '\\"' "$(printf 'x\ty')" 'é ü' 'a\\\\ b\\' 2>&1 </dev/null | tr -d '\r')" "same" \
    "the runner's quoting comes back whole through CommandLineToArgvW"

# A driver that crashes in cuInit: the runner reports the access
# violation with the step it died in, and goes on to the next run.
segv=$(winpath "$work/fake_SEGV.dll")
vrun "$RUN_MS" "$HELPER" driver --lib "$segv" --quick -- \
    "$HELPER" driver --lib "$good" --quick
is "$(outcome)" "crashed 0xc0000005 STATUS_ACCESS_VIOLATION" \
    "crashing fake: reported as an access violation"
sed -n '/^crashed/,/^exited/p' "$work/out" | sed '1,2d;$d' >"$work/recs"
is "$(last_step)" "cuInit" "crashing fake: the last step names cuInit"
is "$(grep -c '^exited 0$' "$work/out"),$vrc" "1,0" \
    "crashing fake: the runner survived it and ran the next helper"
is "$(sed -n '/^exited 0$/,$p' "$work/out" | tail -n 1 | jq -c '[.check, .ok]')" \
    '["end",true]' "crashing fake: the next run went to its end"

# A driver that hangs in cuInit: killed when the timeout passes.
hang=$(winpath "$work/fake_HANG.dll")
vrun "$HANG_MS" "$HELPER" driver --lib "$hang" --quick
is "$(outcome),$vrc" "timeout,0" "hanging fake: killed at the timeout"
is "$(last_step)" "cuInit" "hanging fake: the last step names cuInit"

# A driver that calls ExitProcess(3) in cuInit.
vrun "$RUN_MS" "$HELPER" driver --lib "$(winpath "$work/fake_EXIT.dll")" --quick
is "$(outcome)" "exited 3" "exiting fake: exit code 3"
is "$(last_step),$(rec end .check)" "cuInit," \
    "exiting fake: stopped in cuInit, no end record"

# A driver that prints protocol-looking lines to stdout: they go to
# stderr, never between the records.
vrun "$RUN_MS" "$HELPER" driver --lib "$(winpath "$work/fake_STDOUT.dll")" --quick
is "$(outcome),$(jq -s 'map(select(.from != null or .check == "saxpy" and .ok == false)) | length' "$work/recs")" \
    "exited 0,0" "chatty fake: no line of its stdout among the records"
is "$(rec end .ok)" "true" "chatty fake: the run ok"
like "$(cat "$work/err")" 'fake libcuda: not a record' \
    "chatty fake: its stdout went to stderr"

# A driver that leaves a process behind (a copy of the helper, asleep):
# run by hand it outlives the helper, which proves it can be seen here
# (Wine shows a Windows process's command line as its own); through the
# runner its job takes it along.
spawn=$(winpath "$work/fake_SPAWN.dll")
# The processes whose command line has the fake's path, but this test's.
spawned() {
	ps -eo pid=,args= 2>/dev/null | S=$spawn awk \
	    'index($0, ENVIRON["S"]) && $2 !~ /(grep|awk|ps)$/ { print $1 }'
}
left() { spawned | wc -l | tr -d ' '; }
"$WINE" "$work/cudawiz-verify.exe" driver --lib "$spawn" --quick \
    >"$work/recs" 2>/dev/null </dev/null
n=0
while [ "$(left)" = 0 ] && [ $n -lt 20 ]; do sleep 0.2; n=$((n + 1)); done
is "$(rec end .ok),$(left)" "true,1" \
    "spawning fake, run by hand: the run ok, and its process left running"
for pid in $(spawned); do kill "$pid"; done
n=0
while [ "$(left)" != 0 ] && [ $n -lt 20 ]; do sleep 0.2; n=$((n + 1)); done
vrun "$RUN_MS" "$HELPER" driver --lib "$spawn" --quick
n=0
while [ "$(left)" != 0 ] && [ $n -lt 20 ]; do sleep 0.2; n=$((n + 1)); done
is "$(outcome),$(rec end .ok),$(left)" "exited 0,true,0" \
    "spawning fake, through the runner: the run ok, its process killed with the job"

# The runtime and cuDNN modes, on a machine without a GPU: each DLL
# loaded, its versions read, the first call that needs a device failing
# with the library's own code.
cudart=$(winpath "$work/rt/cudart64_12.dll")
vrun "$RUN_MS" "$HELPER" runtime --lib "$cudart"
is "$(outcome),$(rec load .ok),$(rec runtime_version .version),$(rec init .code),$(raw init name),$(rec end .ok)" \
    "exited 0,true,12040,100,cudaErrorNoDevice,false" \
    "runtime: cudart64_12.dll loaded, version 12040, cudaErrorNoDevice"
vrun "$RUN_MS" "$HELPER" cudnn --lib "$(winpath "$work/dnn/cudnn64_9.dll")" \
    --cudart "$cudart"
is "$(jq -r 'select(.check == "load") | .ok' "$work/recs" | tr '\n' ' ')" \
    "true true " "cudnn: the cudart and cudnn64_9.dll (with its sibling) loaded"
is "$(outcome),$(rec cudnn_version .version),$(rec cudnn_version .cudart_version),$(rec cudnn_create .code),$(rec end .ok)" \
    "exited 0,90100,12040,1001,false" \
    "cudnn: version 9.1 for CUDA 12.4, cudnnCreate's status 1001"

# A DLL that is not there: the load record has Windows' error.
missing=$(winpath "$work/no-such.dll")
vrun "$RUN_MS" "$HELPER" driver --lib "$missing" --quick
is "$(outcome),$(rec load .ok),$(rec end .ok)" "exited 0,false,false" \
    "missing DLL: load failed, the run not ok"
like "$(raw load error)" '(^|[^0-9])error 126([^0-9]|$)' \
    "missing DLL: the load record says Windows' error 126"

# No --lib: the driver from System32, never by a bare name.
vrun "$RUN_MS" "$HELPER" driver --quick
like "$(raw load lib)" '^[A-Za-z]:\\windows\\system32\\nvcuda\.dll$' \
    "no --lib: nvcuda.dll from the system directory"

# The run's token (docs/VERIFY.md) before every record, and out of the
# environment the DLL sees.
tok=0123456789abcdef0123456789abcdef
export CUDAWIZ_VERIFY_TOKEN=$tok
vrun "$RUN_MS" "$HELPER" driver --lib "$good" --quick
unset CUDAWIZ_VERIFY_TOKEN
is "$(grep -vc "^$tok {" "$work/recs"),$(grep -c "^$tok {\"check\":\"end\",\"ok\":true" "$work/recs")" \
    "0,1" "token: before every record, to the end"

# A program that is not there: the runner says it could not start it.
vrun "$RUN_MS" "$(winpath "$work/no-such.exe")"
is "$(outcome)" "nostart 2" "no program: not started, ERROR_FILE_NOT_FOUND"

done_testing
