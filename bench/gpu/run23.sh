#!/bin/bash
# Session of 2026-11-27: what issue 22 adds, on a real GPU: the
# Prometheus textfile with live checks, spec export, a fleet of this
# host's report, the wizard's live page rendered by doctor --format html.
B=$(cd "$(dirname "$0")" && pwd)
O=${OUT:-/tmp/out}; mkdir -p "$O"
LD="/lib64/ld-linux-x86-64.so.2 --library-path $B/lib"
cw() { CUDAWIZ_HELPER=$B/cudawiz-verify timeout 120 $LD $B/cudawiz "$@"; }
OUT=$O/base bash $B/run.sh > /dev/null 2>&1
exec > >(tee "$O/log23.txt") 2>&1
echo "== prometheus"; cw doctor --format prometheus > "$O/doctor.prom"; echo "rc=$?"; grep -v '^#' "$O/doctor.prom" | head -60
echo "== doctor -o textfile"; cw doctor --format prometheus -o "$O/textfile.prom"; echo "rc=$?"; ls -l "$O/textfile.prom"
echo "== spec export"; cw spec export > "$O/spec.json"; echo "rc=$?"; head -c 3000 "$O/spec.json"; echo
echo "== fleet"; mkdir -p "$O/fleet"; cw doctor --json -o "$O/fleet/h1.json"; cp "$O/fleet/h1.json" "$O/fleet/h2.json"
cw fleet "$O/fleet"; echo "rc=$?"; cw fleet --json "$O/fleet" > "$O/fleet.json"; echo "rc=$?"
echo "== baseline"; cw doctor --baseline "$O/spec.json" > "$O/doctor-baseline.txt"; echo "rc=$?"; grep -i drift "$O/doctor-baseline.txt" | head
echo "== html"; cw doctor --format html > "$O/doctor.html"; echo "rc=$?"; wc -c "$O/doctor.html"
echo "== verify text"; cw verify > "$O/verify23.txt"; echo "rc=$?"; cat "$O/verify23.txt" | head -80
echo "== verify prometheus?"; cw verify --format prometheus > "$O/verify.prom" 2>&1; echo "rc=$?"; head -40 "$O/verify.prom"
echo "== explain torch"; cw explain 'RuntimeError: CUDA error: no kernel image is available for execution on the device' | head -30
echo "== timings doctor --format prometheus 11 runs"
for i in $(seq 11); do s=$(date +%s%N); cw doctor --format prometheus >/dev/null; e=$(date +%s%N); echo $(( (e-s)/1000 )); done | sort -n | awk '{a[NR]=$1} END {print "median us:", a[int((NR+1)/2)], "min:", a[1], "max:", a[NR]}'
