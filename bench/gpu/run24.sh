#!/bin/bash
# Issue 23's second round on a lent GPU (see README.md here): the Linux
# build of this commit against the real driver, after the Windows work
# touched shared code (the facts' Windows flag in annotate, fleet reading
# windows-doctor/1 reports, the wizard command word, env --scope), and a
# mixed fleet: this host's doctor report read by fleet together with a
# Windows host's (windows-doctor.json beside this script: cudawiz.exe
# doctor --json under Wine on the test prefix with TensorFlow 2.10 and
# CUDA 12.6; its host is Wine's "VM"). Copy cudawiz, cudawiz-verify,
# COMMIT, lib/ and windows-doctor.json beside it; OUT=DIR bash run24.sh.
B=$(cd "$(dirname "$0")" && pwd); O=${OUT:-/tmp/out}; mkdir -p "$O"
exec > >(tee "$O/log24.txt") 2>&1
LD="/lib64/ld-linux-x86-64.so.2 --library-path $B/lib"
cw() { CUDAWIZ_HELPER=$B/cudawiz-verify timeout 120 $LD $B/cudawiz "$@"; }
echo "commit $(cat $B/COMMIT)"; date -u
nvidia-smi --query-gpu=name,driver_version,memory.total,compute_cap --format=csv,noheader 2>&1 | head -2
echo "== verify driver"
/usr/bin/time -f '%e s %M KiB' timeout 120 $B/cudawiz-verify driver > "$O/verify-driver.jsonl"; echo "rc=$?"
cut -c1-240 "$O/verify-driver.jsonl"
echo "== verify"
cw verify > "$O/verify.txt"; echo "rc=$?"; cat "$O/verify.txt"
echo "== doctor"
cw doctor > "$O/doctor.txt"; echo "rc=$?"; sed -n '/^Live/,$p' "$O/doctor.txt" | head -80
cw doctor --json > "$O/doctor.json"; echo "doctor --json rc=$?"
for i in $(seq 11); do s=$(date +%s%N); cw doctor --json >/dev/null; e=$(date +%s%N); echo $(( (e-s)/1000000 )); done | sort -n |
    awk '{a[NR]=$1} END {print "doctor --json median ms:", a[int((NR+1)/2)], "min:", a[1], "max:", a[NR]}'
echo "== spec export"
cw spec export > "$O/spec.json"; echo "rc=$?"; cat "$O/spec.json"
echo "== fleet: this host and a Windows host"
cw fleet "$O/doctor.json" "$B/windows-doctor.json" > "$O/fleet.txt"; echo "rc=$?"; cat "$O/fleet.txt"
cw fleet --json "$O/doctor.json" "$B/windows-doctor.json" > "$O/fleet.json"; echo "fleet --json rc=$?"
echo "== env --shell powershell --scope user (for WSL users), head"
cw env --shell powershell --scope user > "$O/env-user.ps1"; echo "rc=$?"; head -30 "$O/env-user.ps1"
echo "== wizard off a terminal"
cw wizard </dev/null >/dev/null 2>"$O/wizard.err"; echo "rc=$?"; cat "$O/wizard.err"
