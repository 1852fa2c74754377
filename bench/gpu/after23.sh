#!/bin/bash
B=$(cd "$(dirname "$0")" && pwd); O=${OUT:-/tmp/out}; mkdir -p "$O"
LD="/lib64/ld-linux-x86-64.so.2 --library-path $B/lib"
cw() { CUDAWIZ_HELPER=$B/cudawiz-verify timeout 120 $LD $B/cudawiz "$@"; }
echo "commit $(cat $B/COMMIT)"; date -u
cw doctor > "$O/doctor-after.txt"; echo "doctor rc=$?"
sed -n '/^Findings/,$p' "$O/doctor-after.txt"
cw doctor --format prometheus | grep -E '^cudawiz_finding'
grep -h -E 'Requires-Dist: (cuda-bindings|cuda-toolkit|jaxlib)' /opt/torch/.venv/lib/python3.12/site-packages/{cuda_core,numba_cuda,jax}-*.dist-info/METADATA
ls /opt/torch/.venv/lib/python3.12/site-packages/ | grep -i -E "^nvidia_cuda_runtime|^cupy" 
