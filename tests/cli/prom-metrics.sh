#!/bin/sh
# doctor --format prometheus: promtool (Debian's prometheus package)
# accepts the metrics of this machine and of fixture trees (a healthy GPU
# machine, a broken one with many findings, one whose paths hold quotes,
# backslashes, newlines and bytes that are not UTF-8); a few series are
# checked exactly against the JSON report of the same tree: the error
# count, each toolkit once, one series per finding code summing to the
# number of findings, no label set twice.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_framework.sh"

command -v promtool >/dev/null 2>&1 ||
    skip_all "promtool is not installed (Debian package: prometheus)"

NL='
'
BAD=$(printf '\377\376')
BAD2=$(printf '\376\377')

# prom_check LABEL FILE: promtool accepts FILE (its linter too), each
# family's # HELP and # TYPE come once and before its samples, and no
# series (name and label set) appears twice.
prom_check() {
	if promtool check metrics < "$2" > "$2.promtool" 2>&1; then
		tap_result 0 "$1: promtool check metrics accepts it"
	else
		tap_result 1 "$1: promtool check metrics accepts it"
		sed 's/^/#   /' "$2.promtool" | head -n 20
	fi
	is "$(grep -v '^#' "$2" | sed 's/ [^ ]*$//' | sort | uniq -d | head -n 3)" "" \
	    "$1: no series twice"
	is "$(awk '
	    /^# HELP / { if (seen[$3]++) print "HELP twice: " $3; help = $3; next }
	    /^# TYPE / { if ($3 != help) print "TYPE without HELP: " $3; type = $3; next }
	    { n = $0; sub(/[{ ].*/, "", n); if (n != type) print "sample out of its family: " n }
	    ' "$2" | head -n 3)" "" "$1: HELP, TYPE, then the family's samples"
	is "$(tail -c 1 "$2" | od -An -c | tr -d ' ')" '\n' "$1: ends with a newline"
}

# prom_value FILE SERIES: the value of the series written exactly so.
prom_value() {
	awk -v s="$2" 'substr($0, 1, length(s) + 1) == s " " {
	    print substr($0, length(s) + 2) }' "$1"
}

# prom_sum FILE NAME: the sum of every sample of NAME.
prom_sum() {
	awk -v n="$2" '$0 !~ /^#/ { m = $0; sub(/[{ ].*/, "", m)
	    if (m == n) { t += $NF } } END { print t + 0 }' "$1"
}

# prom_vs_json LABEL PROM JSON: the series that must agree with the JSON
# report of the same run.
prom_vs_json() {
	for sev in error warning info; do
		is "$(prom_value "$2" "cudawiz_findings{severity=\"$sev\"}")" \
		    "$(jq -r ".summary.${sev}s // .summary.$sev" "$3")" \
		    "$1: cudawiz_findings{severity=\"$sev\"} is the JSON summary's count"
	done
	is "$(prom_sum "$2" cudawiz_finding)" "$(jq '.findings | length' "$3")" \
	    "$1: the cudawiz_finding series add up to the number of findings"
	is "$(grep -c '^cudawiz_finding{' "$2")" \
	    "$(jq '[.findings[] | "\(.code) \(.severity)"] | unique | length' "$3")" \
	    "$1: one cudawiz_finding series per code"
	is "$(prom_value "$2" cudawiz_up)" 1 "$1: cudawiz_up is 1"
}

# run_prom WORDS [N=V...]: doctor WORDS on $FX with exactly these
# variables, prometheus into $FX.prom and JSON into $FX.json.
run_prom() {
	w=$1
	shift
	fx_cmd_env "doctor --json $w" "$@"
	cp "$FX_OUT" "$FX.json"
	fx_lint_keep doctor
	json_rc=$FX_RC
	fx_cmd_env "doctor --format prometheus $w" "$@"
	cp "$FX_OUT" "$FX.prom"
	is "$FX_RC" "$json_rc" "the exit status is doctor's ($json_rc)"
	is "$(cat "$FX.stderr")" "" "nothing on stderr"
}

# -- This machine (no GPU, a real CUDA 13 toolkit where the build
# machines have one), without --root.
mine=${FX_TMP}/cudawiz-prom-mine.$$
fx_dirs="${fx_dirs:-} $mine.prom $mine.json $mine.prom.promtool"
env -i LC_ALL=C PATH=/usr/local/cuda/bin:/usr/bin:/bin HOME="${HOME:-/root}" \
    "$CUDAWIZ" doctor --json > "$mine.json" 2>/dev/null
mine_rc=$?
env -i LC_ALL=C PATH=/usr/local/cuda/bin:/usr/bin:/bin HOME="${HOME:-/root}" \
    "$CUDAWIZ" doctor --format prometheus > "$mine.prom" 2>/dev/null
is "$?" "$mine_rc" "this machine: the exit status is doctor's"
# Both reports whole: a run that died (a sanitizer's report) would leave
# two empty files that agree.
is "$(jq -r .schema "$mine.json" 2>/dev/null)" cudawiz/doctor/1 \
    "this machine: the JSON report is whole (exit $mine_rc)"
like "$(tail -n 1 "$mine.prom")" '^cudawiz_' "this machine: the metrics are whole"
prom_check "this machine" "$mine.prom"
prom_vs_json "this machine" "$mine.prom" "$mine.json"
is "$(grep -c '^cudawiz_toolkit_info{' "$mine.prom")" \
    "$(jq '[.facts.toolkits[] | "\(.release // .version) \(.root)"] | unique | length' "$mine.json")" \
    "this machine: each toolkit once"
for root in $(jq -r '.facts.toolkits[].root' "$mine.json"); do
	is "$(grep -c "^cudawiz_toolkit_info{.*,path=\"$root\"} 1\$" "$mine.prom")" 1 \
	    "this machine: $root has its series"
done
is "$(prom_value "$mine.prom" cudawiz_gpus)" "$(jq '.facts.gpus | length' "$mine.json")" \
    "this machine: cudawiz_gpus counts the GPUs"

# -- A healthy GPU machine with a framework.
fx_new
fx_healthy_gpu
fx_file /usr/share/misc/pci.ids "# pci.ids
10de  NVIDIA Corporation
	2330  GH100 [H100 SXM5 80GB]"
d=/sys/bus/pci/devices/0000:01:00.0
fx_file $d/current_link_speed "32.0 GT/s PCIe"
fx_file $d/current_link_width 16
fx_file $d/max_link_speed "32.0 GT/s PCIe"
fx_file $d/max_link_width 16
fx_toolkit 13.0.0
fx_link cuda-13.0 /usr/local/cuda
fx_file /etc/ld.so.conf.d/cuda.conf "/usr/local/cuda-13.0/targets/x86_64-linux/lib"
fx_dir /usr/bin
fx_dir /bin
fx_venv_env /home/u/venvs/cpu
fx_torch "$FX_SITE" 2.4.0+cpu None
run_prom "" PATH=/usr/local/cuda/bin:/usr/bin:/bin CUDA_HOME=/usr/local/cuda HOME=/home/u \
    VIRTUAL_ENV=/home/u/venvs/cpu
prom_check "healthy GPU machine" "$FX.prom"
prom_vs_json "healthy GPU machine" "$FX.prom" "$FX.json"
is "$(grep '^cudawiz_gpu_info' "$FX.prom")" \
    'cudawiz_gpu_info{pci_address="0000:01:00.0",name="GH100 [H100 SXM5 80GB]",compute_capability="9.0",link_width="16",link_speed="32.0 GT/s PCIe",max_link_width="16",max_link_speed="32.0 GT/s PCIe"} 1' \
    "healthy GPU machine: the GPU's info series"
is "$(prom_value "$FX.prom" cudawiz_gpus)" 1 "healthy GPU machine: one GPU"
is "$(grep '^cudawiz_driver_info' "$FX.prom")" \
    "cudawiz_driver_info{version=\"580.65.06\",branch=\"580\",module_version=\"580.65.06\",max_cuda=\"$(jq -r .facts.driver.max_cuda "$FX.json")\"} 1" \
    "healthy GPU machine: the driver's info series"
is "$(grep '^cudawiz_toolkit_info' "$FX.prom")" \
    'cudawiz_toolkit_info{version="13.0.0",path="/usr/local/cuda-13.0"} 1' \
    "healthy GPU machine: the toolkit once, by its root"
is "$(grep '^cudawiz_framework' "$FX.prom")" \
    'cudawiz_framework_info{env="/home/u/venvs/cpu",name="pytorch",version="2.4.0+cpu",cuda="cpu"} 1
cudawiz_framework_gpu_ready{env="/home/u/venvs/cpu",name="pytorch"} 0' \
    "healthy GPU machine: a CPU-only torch: cuda=\"cpu\", not GPU-ready"
is "$(grep -c '^cudawiz_verify' "$FX.prom")" 0 "no live check under --root: no verify series"

# -- The same machine broken: a second toolkit and an environment that
# gives many findings, some codes more than once.
fx_toolkit 12.4.1
run_prom "" PATH=/usr/local/cuda-12.4/bin:/nope/bin:/usr/bin:/usr/bin CUDA_HOME=/missing \
    "LD_LIBRARY_PATH=/gone1:/gone2::/usr/local/cuda/lib64/stubs:/usr/local/cuda-12.4/lib64:/usr/local/cuda/lib64" \
    CUDA_VISIBLE_DEVICES=-1
prom_check "broken machine" "$FX.prom"
prom_vs_json "broken machine" "$FX.prom" "$FX.json"
ok "broken machine: at least five findings" test "$(jq '.findings | length' "$FX.json")" -ge 5
twice=$(jq -r '[.findings[] | "\(.code) \(.severity)"] | group_by(.) |
    map(select(length > 1)) | .[0][0] // empty' "$FX.json")
if [ -n "$twice" ]; then
	sev=${twice#* }
	twice=${twice% *}
	is "$(prom_value "$FX.prom" "cudawiz_finding{code=\"$twice\",severity=\"$sev\"}")" \
	    "$(jq --arg c "$twice" --arg s "$sev" '[.findings[] |
	    select(.code == $c and .severity == $s)] | length' "$FX.json")" \
	    "broken machine: $twice, found more than once, is counted in one series"
else
	skip "broken machine: a code found twice is counted" "no code appears twice here"
fi
ok "broken machine: an error is reported" test "$(prom_value "$FX.prom" 'cudawiz_findings{severity="error"}')" -ge 1
is "$(grep -c '^cudawiz_toolkit_info{' "$FX.prom")" 2 "broken machine: both toolkits"

# -- Hostile names: quotes, backslashes, newlines, bytes that are not
# UTF-8 in toolkit directories and Python environment prefixes.
fx_new
Q='/usr/local/cuda-12.4"q\b'"${NL}"'n'
fx_file "$Q/version.json" '{ "cuda": { "version": "12.4.1" } }'
fx_file "/usr/local/cuda-${BAD}/version.json" '{ "cuda": { "version": "11.8.0" } }'
fx_file "/usr/local/cuda-${BAD2}/version.json" '{ "cuda": { "version": "11.8.0" } }'
fx_venv_env "/home/u/.virtualenvs/a\"b\\c${NL}d" 3.11
fx_torch "$FX_SITE" 2.4.0+cpu None
fx_venv_env "/home/u/.virtualenvs/inv${BAD}utf" 3.11
fx_torch "$FX_SITE" 2.3.1+cpu None
run_prom "" HOME=/home/u "LD_LIBRARY_PATH=/x\"y${NL}z:/w${BAD}"
prom_check "hostile names" "$FX.prom"
prom_vs_json "hostile names" "$FX.prom" "$FX.json"
ok "hostile names: the exposition is valid UTF-8" \
    python3 -c 'import sys; open(sys.argv[1], "rb").read().decode("utf-8")' "$FX.prom"
is "$(grep -c '^cudawiz_toolkit_info{version="12.4.1",path="/usr/local/cuda-12.4\\"q\\\\b\\nn"} 1$' "$FX.prom")" 1 \
    'hostile names: a quote, a backslash and a newline are escaped as \" \\ \n'
is "$(grep -c '^cudawiz_toolkit_info{version="11.8.0",path="/usr/local/cuda-��"} 1$' "$FX.prom")" 1 \
    "hostile names: two paths that differ in bytes that are not UTF-8 give one series"
like "$(grep '^cudawiz_framework_info' "$FX.prom")" \
    'env="/home/u/.virtualenvs/a\\"b\\\\c\\nd",name="pytorch"' \
    "hostile names: an environment prefix is escaped"
like "$(grep '^cudawiz_framework_info' "$FX.prom")" \
    'env="/home/u/.virtualenvs/inv��utf",name="pytorch",version="2.3.1\+cpu"' \
    "hostile names: bytes that are not UTF-8 in a prefix become U+FFFD"

done_testing
