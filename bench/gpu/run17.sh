set -u
O=$OUT
cd "$(dirname "$0")/../.." || exit 1
{
echo "== date"; date -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -2
echo "== A/B"
timeout 300 python3 bench/gpu/ab.py build-gpu-before build-gpu-after 10000
A=build-gpu-after
LD="/lib64/ld-linux-x86-64.so.2 --library-path $A/lib"
echo "== doctor with live checks (new)"
CUDAWIZ_HELPER=$PWD/$A/cudawiz-verify timeout 120 $LD $A/cudawiz doctor > $O/doctor.txt 2>&1; echo "rc=$?"
head -80 $O/doctor.txt
CUDAWIZ_HELPER=$PWD/$A/cudawiz-verify timeout 120 $LD $A/cudawiz doctor --json > $O/doctor.json 2>$O/doctor.err; echo "json rc=$?"
CUDAWIZ_HELPER=$PWD/$A/cudawiz-verify timeout 120 $LD $A/cudawiz verify > $O/verify.txt 2>&1; echo "verify rc=$?"; head -40 $O/verify.txt
echo "== ld.so --help runs per doctor (strace)"
command -v strace >/dev/null && { strace -f -e trace=execve -o $O/st.txt $LD $A/cudawiz doctor --json --no-verify >/dev/null 2>&1; grep -c 'ld-linux.*--help\|"--help"' $O/st.txt; grep execve $O/st.txt | cut -c1-200 | head; } || echo "no strace"
} 2>&1 | tee $O/log.txt
