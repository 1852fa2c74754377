#!/bin/sh
# The Live verification page running the checks from the wizard: a
# stand-in helper (as tests/cli/verify-cli.sh uses, named by
# CUDAWIZ_HELPER) that answers slowly, wizard-render on this machine
# (--root /: a fixture tree is never run), the progress frames drawn
# while the checks run, their results, and a stop asked for mid-run.
# Which libraries this machine has varies, so screens are matched, not
# compared whole.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"

[ -x "${WIZARD_RENDER:-}" ] || skip_all "no wizard-render (make check builds it)"

W=$(mktemp -d "$FX_TMP/wizard-verify.XXXXXX") || exit 99
trap 'rm -rf "$W"; fx_cleanup' EXIT

# Slow enough that a frame is drawn before each run ends.
cat > "$W/slow" <<'HELPER'
#!/bin/sh
sleep 0.2
echo "{\"check\":\"begin\",\"mode\":\"$1\",\"helper\":\"stand-in\",\"pid\":$$}"
case $1 in
driver)	echo '{"check":"init","ok":true}'
	echo '{"check":"driver_version","version":13000}' ;;
runtime) echo '{"check":"runtime_version","version":13000}'
	echo '{"check":"init","ok":true}' ;;
cudnn)	echo '{"check":"cudnn_version","version":91900,"cudart_version":13000}'
	echo '{"check":"cudnn_create","ok":true}' ;;
esac
echo '{"check":"end","ok":true,"ms":1}'
HELPER
printf '#!/bin/sh\necho "{\\"check\\":\\"begin\\"}"; echo "{\\"check\\":\\"step\\",\\"name\\":\\"cuInit\\"}"; kill -SEGV $$\n' > "$W/segv"
# As on a machine without a (new enough) driver.
cp "$TESTS_SRCDIR/wizard/nodriver.helper" "$W/nodriver" || exit 99
chmod +x "$W/slow" "$W/segv" "$W/nodriver"

render() {	# HELPER KEYS: screens in $W/out, status in $rc
	env -i PATH=/usr/bin:/bin HOME=/nonexistent LC_ALL=C \
	    ${ASAN_OPTIONS:+ASAN_OPTIONS="$ASAN_OPTIONS"} \
	    ${UBSAN_OPTIONS:+UBSAN_OPTIONS="$UBSAN_OPTIONS"} \
	    CUDAWIZ_HELPER="$W/$1" "$WIZARD_RENDER" --root / \
	    --keys "$TESTS_SRCDIR/wizard/$2" > "$W/out" 2> "$W/err"
	rc=$?
	out=$(cat "$W/out")
}
# The header of the first screen with a line matching an awk pattern.
header_of() { awk -v pat="$1" '/^=== /{h=$0} $0 ~ pat {print h; exit}' "$W/out"; }
# The screen under a header (the first one so named).
screen() { awk -v h="$1" '/^=== /{on = ($0 == h) && !seen; if (on) seen = 1} on' "$W/out"; }
# The last screen under a header (after the keys that move on).
last() { awk -v h="$1" '/^=== /{if ($0 == h) {n++; buf = ""} on = ($0 == h)} on {buf = buf $0 "\n"} END {printf "%s", buf}' "$W/out"; }

render slow verify-run.keys
is "$rc" 0 "run: wizard-render exits 0"
like "$(screen '=== enter (80x24) ===')" "Enter or r: run the checks" \
    "run: the page offers the checks when they have not run"
is "$(header_of 'running check 1 of [0-9]+: driver ')" "=== (progress) (80x24) ===" \
    "run: a progress frame says check 1 of n, the driver, runs"
n=$(grep -c '^=== (progress)' "$W/out")
total=$(sed -n 's/.*running check 1 of \([0-9]*\):.*/\1/p' "$W/out" | head -n 1)
is "$n" "${total:-?}" "run: one progress frame per check ($n)"
like "$(screen '=== (worked) (80x24) ===')" "works, [0-9]+ ms" \
    "run: then the results, with no key pressed"
like "$(screen '=== (worked) (80x24) ===')" "✓ none" \
    "run: every check passed: no finding, and it says so"
like "$(screen '=== (worked) (80x24) ===')" "r: run the checks again" \
    "run: and the checks can run again"
unlike "$(screen '=== (worked) (80x24) ===')" "running check" \
    "run: no progress line once done"
like "$(last '=== right (80x24) ===')" "Diagnosis" "run: the wizard goes on to Diagnosis"

render slow verify-cancel.keys
is "$rc" 0 "cancel: wizard-render exits 0"
like "$(screen '=== (worked) (80x24) ===')" "stopped: 1 of [0-9]+ checks finished" \
    "cancel: Esc mid-run stops after the check that ran"
like "$(screen '=== (worked) (80x24) ===')" "works, [0-9]+ ms" \
    "cancel: what finished is shown"
like "$(screen '=== (worked) (80x24) ===')" "stopped before the end" \
    "cancel: the findings part says the checks were stopped"
unlike "$(screen '=== (worked) (80x24) ===')" "✓ none" \
    "cancel: never \"none\" after a stopped run"
like "$(last '=== right (80x24) ===')" "Diagnosis" "cancel: the program goes on"

render slow verify-intr.keys
is "$rc" 0 "ctrl-c: wizard-render exits 0"
like "$(screen '=== (worked) (80x24) ===')" "stopped: 0 of [0-9]+ checks finished" \
    "ctrl-c: stops before the next check"
like "$(last '=== left (80x24) ===')" "Compatibility" "ctrl-c: the wizard goes on (Left, then Right)"

# A crash found by the page's own run reaches the Diagnosis page.
render segv verify-run.keys
is "$rc" 0 "crash: wizard-render exits 0"
like "$(screen '=== (worked) (80x24) ===')" "✗ driver" \
    "crash: the run is marked failed"
like "$(screen '=== (worked) (80x24) ===')" "CRASHED \\(SIGSEGV in cuInit\\), [0-9]+ ms" \
    "crash: with verify's words: the signal and the step"
like "$(last '=== right (80x24) ===')" "VERIFY_CRASHED" \
    "crash: Diagnosis shows the live finding"

# A resize while the checks run: the screens after them take the size.
render slow verify-resize.keys
is "$rc" 0 "resize: wizard-render exits 0"
like "$(grep '^=== ' "$W/out" | tail -n 1)" '^=== right \(100x30\) ===$' \
    "resize: the wizard goes on at the new size"
like "$(last '=== right (100x30) ===')" "Diagnosis" "resize: on the Diagnosis page"

# Failed checks: each run says ✗ and the error's name and number, as
# `cudawiz verify` does; never "✓ none" under the findings.
render nodriver verify-run.keys
is "$rc" 0 "failed: wizard-render exits 0"
worked=$(screen '=== (worked) (80x24) ===')
like "$worked" "✗ driver" "failed: the driver's run is marked ✗"
like "$worked" "CUDA_ERROR_INSUFFICIENT_DRIVER \\(35\\), [0-9]+ ms" \
    "failed: with the error's name and number"
unlike "$worked" "works|done, " "failed: no run says it worked"
unlike "$worked" "✓ none" "failed: the findings part does not say none"
like "$(echo "$worked" | sed -n '/Findings from the checks/,$p')" \
    "RUNTIME_INIT_FAILED|not every check passed" \
    "failed: it shows the finding or says not every check passed"

done_testing
