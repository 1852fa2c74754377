#!/bin/sh
# A hostile tree: symbolic link loops (loop -> loop, a -> b -> a, a
# directory that contains itself, ld.so.conf.d -> .), links to / and
# relative links that climb past the root, everywhere the probes look:
# library directories, the default directories, the toolkit, conda,
# virtualenvwrapper and the home directory, site-packages, sysfs. Next to
# the tree, outside it, sits a machine the links would reach if they were
# followed on the host: a canary library, a toolkit, a conda env with
# torch. cudawiz must end quickly, never loop, and never read outside the
# root; strace(1), where it can run, checks the last one path by path,
# and that nothing in the tree is looked up again by its host path.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_python.sh"
. "$TESTS_SRCDIR/lib/fx_hostile.sh"

hostile_baseline

# The machine outside the root.
fx_new
OUT=$FX
fx_so /lib/libcanary.so.1 libcanary.so.1
fx_so /cuda/lib64/libcudart.so.12 libcudart.so.12
fx_file /cuda/version.json '{ "cuda": { "version": "12.4.1" } }'
fx_file /cuda/bin/nvcc "#!/bin/sh"
fx_conda_env /conda 3.11
fx_dist_info /conda/lib/python3.11/site-packages torch 2.4.0
fx_file /etc/canary.conf "/lib"

fx_new
L=/usr/lib/x86_64-linux-gnu
fx_dir $L
fx_link loop $L/loop
fx_link b $L/a
fx_link a $L/b
fx_link .. $L/up
fx_link / /opt/escape
fx_link ../../../../../../../../../../.. /opt/climb
fx_link / /usr/lib64
fx_link / /lib64
fx_link /usr/local /usr/local/cuda-12.4
fx_link / /usr/local/cuda
fx_link / /home/u/miniconda3
fx_link /opt/escape /home/u/.virtualenvs
fx_link ../../.. /home/u/.conda/envs
fx_link . /etc/ld.so.conf.d
fx_file /etc/ld.so.conf "include /etc/ld.so.conf.d/*.conf
include /etc/ld.so.conf
/opt/escape$OUT/lib"
fx_link ld.so.conf /etc/ld.so.conf.d/self.conf
fx_link /opt/escape$OUT/etc/canary.conf /etc/ld.so.conf.d/out.conf
fx_venv /v 3.11
fx_link . /v/lib/python3.11/site-packages/loop
fx_link /opt/escape$OUT/conda/lib/python3.11/site-packages/torch-2.4.0.dist-info \
    /v/lib/python3.11/site-packages/torch-2.4.0.dist-info
fx_link ../.. /v/lib/python3.11/site-packages/nvidia
fx_link / /v/lib/python3.11/site-packages/nvidia_cudnn_cu12-9.1.0.dist-info
fx_dir /sys/bus/pci
fx_link . /sys/bus/pci/devices
fx_file /proc/sys/kernel/osrelease "6.1.0-13-amd64"
fx_dir /lib/modules/6.1.0-13-amd64/updates
fx_link .. /lib/modules/6.1.0-13-amd64/updates/up
fx_link / /lib/modules/6.1.0-13-amd64/updates/root
fx_dir /proc/driver/nvidia

set -- HOME=/home/u \
    LD_LIBRARY_PATH=/opt/escape$OUT/lib:/opt/climb$OUT/lib:$L/loop:$L/a:$L/up$OUT/lib \
    CUDA_HOME=/opt/escape$OUT/cuda CUDA_PATH=/opt/climb$OUT/cuda \
    CONDA_PREFIX=/opt/escape$OUT/conda VIRTUAL_ENV=/v \
    PATH=/opt/escape$OUT/cuda/bin:/usr/local/cuda/bin:/v/bin

hostile_run "doctor --json" "doctor --json" "$@"
is "$(fx_jq '[.facts.libraries[] | select(.resolved != null)] | length')" 0 \
    "no library resolves (the only ones are outside the root)"
is "$(fx_jq '.facts.toolkits | length')" 0 "no toolkit is found (the only one is outside)"
is "$(fx_jq '[.facts.python_envs[].packages[] | select(.name == "torch" and .metadata_error == null)] | length')" 0 \
    "torch outside the root is never read"
like "$(fx_jq '.facts.python_envs[] | select(.prefix == "/v") | .packages[] | select(.name == "torch") | .metadata_error')" \
    'No such file' "the venv's torch link out of the root dangles inside it"
like "$(hostile_notes_like "^$L/(loop|a): ")" 'Too many levels of symbolic links' \
    "the library directory loops are noted"
like "$(fx_jq '.findings[] | select(.code == "ENV_PATH_MISSING") | .evidence[]')" \
    "CUDA_HOME" "CUDA_HOME through /opt/escape is missing inside the root"

hostile_run "doctor (text)" doctor "$@"

hostile_run "why libcanary.so.1" "why libcanary.so.1" "$@"
is "$FX_RC" 1 "the canary outside the root is not found"
unlike "$(cat "$FX_OUT")" 'resolved:' "nothing resolves"
hostile_run "why --json libcudart.so.12" "why --json libcudart.so.12" "$@"
is "$(fx_jq '.resolved')" null "libcudart.so.12 outside the root is not found"

hostile_run "env --shell sh" "env --shell sh" "$@"
ok "the script is valid sh" sh -n "$FX_OUT"

# Path by path: every file system call that names the outside machine
# names it below the root (where the links were followed inside it).
strace_why=
strace=$(command -v strace 2>/dev/null)
if [ -z "$strace" ]; then
	strace_why="strace is not installed (Debian package: strace)"
elif ! "$strace" -f -qq -o /dev/null true 2>/dev/null; then
	strace_why="strace cannot trace here (ptrace is not permitted)"
fi
if [ -n "$strace_why" ]; then
	skip "no file system call leaves the root" "$strace_why"
else
	for words in "doctor --json" "why libcanary.so.1" "why libcudart.so.12"; do
		h_drop=${FX_DROP:-}
		FX_DROP="$strace -f -qq -e trace=%file -o $FX.strace $h_drop"
		fx_cmd_env "$words" "$@"
		FX_DROP=$h_drop
		calls=$(grep -c . "$FX.strace" 2>/dev/null)
		escaped=$(grep -F "\"$OUT" "$FX.strace" | head -n 5)
		# Issue 16: a name checked and then looked up again by its
		# whole path follows whatever a writer put there meanwhile.
		# Under the root, every lookup is relative to a directory
		# descriptor the walk holds (openat(N, "lib")); only the
		# root itself is named by its host path.
		by_path=$(grep -F "\"$FX/" "$FX.strace" | head -n 5)
		ok "$words: strace saw the run (${calls:-no} calls)" \
		    [ "${calls:-0}" -gt 100 ]
		is "$escaped" "" "$words: no file system call leaves the root"
		if [ -n "${CUDAWIZ_UNDER_VALGRIND:-}" ]; then
			# valgrind stats every file cudawiz maps, by the
			# path /proc/self/fd gives, to read its debug info.
			skip "$words: nothing in the tree is looked up by its host path" \
			    "under valgrind, which looks up mapped files by path itself"
		else
			is "$by_path" "" "$words: nothing in the tree is looked up by its host path"
		fi
		rm -f "$FX.strace"
	done
fi

done_testing
