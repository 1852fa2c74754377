#!/bin/bash
# One prepared pass on a lent GPU machine (no autotools there): facts about
# it, the helper's driver check (bandwidth, FMA), each runtime and cuDNN
# found, and doctor / verify with timings. Usage: copy cudawiz,
# cudawiz-verify, COMMIT (the commit they were built from) and lib/ (the
# non-glibc libraries cudawiz links: libelf, libjansson, libncursesw,
# libtinfo, libz) into the directory that holds a copy of this script, then
# OUT=DIR bash run.sh. Everything lands in $OUT.
B=$(cd "$(dirname "$0")" && pwd)
O=${OUT:-/tmp/out}; mkdir -p "$O"
exec > >(tee "$O/log.txt") 2>&1
LD="/lib64/ld-linux-x86-64.so.2 --library-path $B/lib"
cw() { CUDAWIZ_HELPER=$B/cudawiz-verify timeout 120 $LD $B/cudawiz "$@"; }
echo "== date"; date -u; echo "commit $(cat $B/COMMIT)"
echo "== machine"; uname -r; head -2 /etc/os-release; ldd --version | head -1; nproc
nvidia-smi --query-gpu=name,driver_version,memory.total,compute_cap,pci.bus_id --format=csv 2>&1 | head -5
cat /proc/driver/nvidia/version 2>&1 | head -2
echo "== verify driver"
/usr/bin/time -f '%e s %M KiB' timeout 120 $B/cudawiz-verify driver > "$O/verify-driver.jsonl"; echo "rc=$?"
cat "$O/verify-driver.jsonl" | cut -c1-400
echo "== libraries"
find / -xdev \( -name 'libcudart.so.*' -o -name 'libcudnn.so.*' \) -not -path '*/proc/*' 2>/dev/null | grep -v '\.so\.[0-9]*\.[0-9]*\.[0-9]*$' | sort | head -20 | tee "$O/libs.txt"
rt=$(grep -m1 'libcudart.so.1[23]$' "$O/libs.txt"); dn=$(grep -m1 'libcudnn.so.9$' "$O/libs.txt")
for r in $(grep 'libcudart.so' "$O/libs.txt" | head -4); do echo "-- runtime $r"; timeout 120 $B/cudawiz-verify runtime --lib "$r" | cut -c1-300; done
for d in $(grep 'libcudnn.so' "$O/libs.txt" | head -3); do echo "-- cudnn $d"; timeout 120 $B/cudawiz-verify cudnn --lib "$d" ${rt:+--cudart "$rt"} | cut -c1-300; done
echo "== doctor"
cw doctor > "$O/doctor.txt"; echo "rc=$?"; head -60 "$O/doctor.txt"
cw doctor --json > "$O/doctor.json"; echo "rc=$?"
cw verify --json > "$O/verify.json"; echo "verify rc=$?"
cw verify > "$O/verify.txt"; cat "$O/verify.txt" | head -60
echo "== timings (doctor --json, 21 runs, then --offline doctor without live checks if any option exists)"
for i in $(seq 21); do s=$(date +%s%N); cw doctor --json >/dev/null; e=$(date +%s%N); echo $(( (e-s)/1000 )); done | sort -n | awk '{a[NR]=$1} END {print "doctor --json median us:", a[int((NR+1)/2)], "min:", a[1], "max:", a[NR]}'
for i in $(seq 5); do s=$(date +%s%N); cw verify --json >/dev/null; e=$(date +%s%N); echo $(( (e-s)/1000 )); done | sort -n | awk '{a[NR]=$1} END {print "verify --json median us:", a[int((NR+1)/2)], "min:", a[1], "max:", a[NR]}'
python3 -c 'import torch;print("torch",torch.__version__,torch.version.cuda,torch.cuda.is_available())' 2>&1 | tail -1
