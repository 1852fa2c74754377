#!/bin/sh
# contrib/slurm against a one-node Slurm that this test starts from
# Debian's packages: munged with a fresh key and its own socket,
# slurmctld and slurmd with a slurm.conf of their own (cluster "test",
# proctrack/linuxproc, task/none, no accounting, free ports, every state,
# spool, log and pid file in a temporary directory). Then:
#   - the recipe: cudawiz-fleet.sbatch under `sbatch --wait` writes the
#     node's report NODE.json into the shared directory and runs fleet;
#   - the health check drains the node on an error finding (a --root tree
#     whose GPU has no driver loaded) with the code in the reason, leaves
#     it idle on a healthy tree, leaves an admin's drain reason alone,
#     keeps hostile finding text out of the reason and the shell, and
#     drains nothing when cudawiz is missing or cannot run.
# Everything it started is stopped at exit. It skips, with the reason and
# the logs' tails, where a component is missing or the daemons do not
# come up (a container without the rights slurmd needs, say).
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_gpu.sh"

for c in munged:munge slurmctld:slurmctld slurmd:slurmd srun:slurm-client \
    sbatch:slurm-client scontrol:slurm-client sinfo:slurm-client python3:python3; do
	command -v "${c%%:*}" >/dev/null 2>&1 ||
	    skip_all "no ${c%%:*} (Debian package: ${c#*:})"
done
[ "$(id -u)" = 0 ] ||
	skip_all "not root: slurmd runs jobs as their users only as root"

contrib=$TESTS_SRCDIR/../contrib/slurm
# The daemons' directory is short (under TMPDIR, not the build tree):
# munge's socket path must fit a sockaddr_un's 108 bytes.
T=$(mktemp -d "${TMPDIR:-/tmp}/cw-slurm.XXXXXX") || exit 99
chmod 700 "$T"
pids=
# stop PID: TERM, then KILL after 50 polls; waits for it either way.
stop() {
	kill "$1" 2>/dev/null || return 0
	n=0
	while kill -0 "$1" 2>/dev/null && [ $n -lt 50 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	kill -9 "$1" 2>/dev/null
	wait "$1" 2>/dev/null
}
stop_all() {
	# The daemons in the reverse order of their start.
	for p in $pids; do r="$p $r"; done
	for p in ${r:-}; do stop "$p"; done
	[ -n "${FX_KEEP:-}" ] || rm -rf "$T"
	fx_cleanup
}
trap stop_all EXIT
trap 'exit 1' INT TERM HUP
# logs: the tails of the daemons' logs, for a skip or a failure.
logs() {
	for f in "$T"/*.log "$T"/*.out; do
		[ -s "$f" ] || continue
		diag "$(basename "$f"):"
		tail -n 15 "$f" | sed 's/^/#   /'
	done
}
give_up() {
	logs
	skip_all "$1"
}

# ---- munge
dd if=/dev/urandom of="$T/munge.key" bs=1024 count=1 2>/dev/null
chmod 400 "$T/munge.key"
munged -F -f --key-file="$T/munge.key" --socket="$T/munge.sock" \
    --pid-file="$T/munged.pid" --log-file="$T/munged.log" \
    --seed-file="$T/munged.seed" > "$T/munged.out" 2>&1 &
pids="$pids $!"
n=0
while ! [ -S "$T/munge.sock" ] && [ $n -lt 50 ]; do sleep 0.1; n=$((n + 1)); done
[ -S "$T/munge.sock" ] || give_up "munged did not start"

# ---- slurmctld and slurmd
node=$(hostname -s)
ports=$(python3 -c 'import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])') || give_up "no free port"
mkdir -p "$T/state" "$T/spool"
cat > "$T/slurm.conf" <<CONF
ClusterName=test
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=${ports% *}
SlurmdPort=${ports#* }
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$T/munge.sock
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SwitchType=switch/none
MpiDefault=none
ReturnToService=2
SlurmdParameters=config_overrides
MailProg=/bin/true
NodeName=$node NodeAddr=127.0.0.1 CPUs=1 State=UNKNOWN
PartitionName=test Nodes=$node Default=YES MaxTime=10 State=UP
CONF
SLURM_CONF=$T/slurm.conf
export SLURM_CONF
slurmctld -D -c -f "$SLURM_CONF" > "$T/slurmctld.out" 2>&1 &
pids="$pids $!"
slurmd -D -f "$SLURM_CONF" -N "$node" > "$T/slurmd.out" 2>&1 &
pids="$pids $!"
# state: the node's state as sinfo says it (idle, drained, ...).
state() {
	sinfo -h -n "$node" -o %T 2>/dev/null
}
reason() {
	sinfo -h -n "$node" -o %E 2>/dev/null
}
n=0
while [ "$(state)" != idle ] && [ $n -lt 60 ]; do sleep 0.5; n=$((n + 1)); done
[ "$(state)" = idle ] || give_up "the node did not come up idle (state: '$(state)')"
diag "node $node idle after $n polls"

# ---- the recipe: one task per node, NODE.json, then fleet
fleet=$T/fleet
CUDAWIZ=$CUDAWIZ sbatch --wait -N 1 --time=2 -o "$T/job.out" \
    "$contrib/cudawiz-fleet.sbatch" "$fleet" > "$T/sbatch.out" 2>&1
job_rc=$?
ok "the job wrote the node's report $node.json" test -s "$fleet/hosts/$node.json"
is "$(jq -r .schema "$fleet/hosts/$node.json" 2>/dev/null)" cudawiz/doctor/1 \
    "the report is doctor JSON"
is "$(ls "$fleet/hosts")" "$node.json" "and nothing else (no .tmp left)"
like "$(cat "$T/job.out")" "^srun: 1 report\\(s\\) in " "the job counted the reports"
# The fleet step (contract 5 of issue 22).
ok "the job exits as fleet does, 0 or 1 (got $job_rc)" [ "$job_rc" -le 1 ]
[ "$job_rc" -le 1 ] || sed 's/^/#   /' "$T/job.out" "$T/sbatch.out"
is "$(jq -r .schema "$fleet/fleet.json" 2>/dev/null)" cudawiz/fleet/1 "the job wrote fleet.json"
ok "the job wrote fleet.html" test -s "$fleet/fleet.html"
like "$(cat "$T/job.out")" "$node" "the fleet report in the job's output names the node"

# ---- the health check
fx_new
fx_cuda13_machine
healthy=$FX
fx_new
fx_kernel 6.1.0-13-amd64
fx_gpu 0000:01:00.0 2330
fx_kmod 6.1.0-13-amd64
broken=$FX
# check [NAME=VALUE...] -- [OPTION...]: the health check as slurmd runs it
# (a bare environment, SLURMD_NODENAME set); its exit status in check_rc,
# its messages in $T/check.err.
check() {
	env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C SLURM_CONF="$SLURM_CONF" \
	    SLURMD_NODENAME="$node" CUDAWIZ="$CUDAWIZ" TMPDIR="$T" "$@" \
	    "$contrib/cudawiz-healthcheck" --matrix "$FX_MATRIX" ${root:+--root "$root"} \
	    > "$T/check.out" 2> "$T/check.err"
	check_rc=$?
}
resume() {
	scontrol update NodeName="$node" State=RESUME 2>/dev/null
	n=0
	while [ "$(state)" != idle ] && [ $n -lt 20 ]; do sleep 0.2; n=$((n + 1)); done
}

root=$healthy; check
is "$check_rc" 0 "a healthy node: exit 0"
is "$(state)" idle "and it stays idle"
is "$(reason)" none "with no reason"

root=$broken; check
is "$check_rc" 1 "an error finding: non-zero exit"
is "$(state)" drained "the node is drained"
like "$(reason)" '^cudawiz: DRIVER_NOT_LOADED( |$)' "the reason names the code"
root=$broken; check
is "$check_rc" 1 "a second run: non-zero again"
like "$(reason)" '^cudawiz: DRIVER_NOT_LOADED' "the node stays drained with cudawiz's reason"
root=$healthy; check
is "$(state)" drained "a healthy run resumes nothing on its own"

resume
scontrol update NodeName="$node" State=DRAIN Reason="disk swap, ticket 42"
root=$broken; check
is "$check_rc" 1 "drained by an admin and broken: non-zero exit"
is "$(reason)" "disk swap, ticket 42" "the admin's reason is kept"
resume

# A stand-in cudawiz whose finding text tries the shell and scontrol.
cat > "$T/hostile" <<HOSTILE
#!/bin/sh
cat <<'JSON'
{"schema": "cudawiz/doctor/1", "findings": [
 {"code": "SONAME_NOT_FOUND", "severity": "error",
  "subject": "x\\" State=RESUME \$(touch $T/pwned1) \`touch $T/pwned2\`; touch $T/pwned3\\n'quoted'"},
 {"code": "BROKEN_LIBRARY", "severity": "warning", "subject": "w"},
 {"code": "LIBCUDA_NOT_FOUND", "severity": "error", "subject": "y"}]}
JSON
exit 1
HOSTILE
chmod +x "$T/hostile"
root=; check CUDAWIZ="$T/hostile"
is "$check_rc" 1 "hostile finding text: the node is still drained (exit 1)"
is "$(state)" drained "drained"
r=$(reason)
like "$r" '^cudawiz: SONAME_NOT_FOUND .*\(\+1 more\)$' "the reason: the first error's code and subject, +1 more"
unlike "$r" "[\"'\$\`;=]" "no quote, dollar, backquote, semicolon or = in the reason"
ok "no command in the finding text ran" \
    test ! -e "$T/pwned1" -a ! -e "$T/pwned2" -a ! -e "$T/pwned3"
ok "the reason is short (${#r} characters)" [ "${#r}" -le 140 ]
resume

root=; check CUDAWIZ="$T/missing-cudawiz"
is "$check_rc" 0 "cudawiz missing: exit 0"
is "$(state)" idle "the node is not drained for a missing tool"
like "$(cat "$T/check.err")" 'missing-cudawiz not found' "and the log says why"
printf '#!/bin/sh\necho "cudawiz: cannot run" >&2\nexit 2\n' > "$T/broken-tool"
chmod +x "$T/broken-tool"
root=; check CUDAWIZ="$T/broken-tool"
is "$check_rc" 0 "cudawiz exits 2: exit 0"
is "$(state)" idle "the node is not drained for a broken tool"
like "$(cat "$T/check.err")" 'exited 2' "and the log says so"

[ "$tap_failed" = 0 ] || logs
done_testing
