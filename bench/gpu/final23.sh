#!/bin/bash
B=$(cd "$(dirname "$0")" && pwd); O=${OUT:-/tmp/out}; mkdir -p "$O"
LD="/lib64/ld-linux-x86-64.so.2 --library-path $B/lib"
cw() { CUDAWIZ_HELPER=$B/cudawiz-verify timeout 120 $LD $B/cudawiz "$@"; }
echo "commit $(cat $B/COMMIT)"; date -u
/usr/bin/time -f '%e s %M KiB' timeout 120 $B/cudawiz-verify driver > "$O/verify-driver.jsonl"; echo "verify driver rc=$?"
cut -c1-200 "$O/verify-driver.jsonl"
cw verify > "$O/verify.txt"; echo "verify rc=$?"; cat "$O/verify.txt"
cw doctor > "$O/doctor.txt"; echo "doctor rc=$?"; sed -n '/^Findings/,$p' "$O/doctor.txt"
