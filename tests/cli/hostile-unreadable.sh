#!/bin/sh
# A hostile tree: directories and files cudawiz cannot read (mode 000)
# everywhere it looks: the system library directory, an LD_LIBRARY_PATH
# directory, a toolkit's lib64 and version.json, /proc/driver/nvidia,
# /sys/bus/pci/devices, ld.so.conf.d, conda's conda-meta, site-packages
# and an environment, conda's list of environments, a dist-info, torch's
# package directory, pyvenv.cfg. Each must be a note or a reason that
# names it, never a stop, and never an empty answer that looks like a
# clean one. Root reads everything, so as root cudawiz runs as user 65534.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_python.sh"
. "$TESTS_SRCDIR/lib/fx_framework.sh"
. "$TESTS_SRCDIR/lib/fx_hostile.sh"

hostile_baseline

fx_new
fx_healthy_gpu
fx_toolkit 12.4.1
TK=/usr/local/cuda-12.4
L=/usr/lib/x86_64-linux-gnu
fx_so /opt/lib/libcudnn.so.9 libcudnn.so.9
fx_so /opt/lib2/libcudnn.so.8 libcudnn.so.8
fx_file /etc/ld.so.conf.d/cuda.conf "$TK/lib64"
C=/opt/conda
fx_condaenv $C 3.11
fx_conda_meta $C cudatoolkit 11.8.0 h6a678d5_0
fx_dist_info $FX_SITE nvidia-cudnn-cu11 8.9.2.26
fx_dir $C/envs/locked/conda-meta
fx_file /home/u/.conda/environments.txt "$C/envs/locked"
V=/home/u/venvs/v
fx_venv_env $V 3.11
fx_torch $FX_SITE 2.4.0 12.4 libcudart.so.12
fx_dist_info $FX_SITE nvidia-cublas-cu12 12.4.5.8
VS=$FX_SITE

if ! fx_drop_privileges; then
	skip_all "$FX_DROP_WHY"
fi
[ -n "${FX_DROP:-}" ] && diag "running cudawiz as user 65534"
for p in $L /opt/lib $TK/targets/x86_64-linux/lib $TK/version.json \
    /proc/driver/nvidia /sys/bus/pci/devices /etc/ld.so.conf.d \
    $C/conda-meta $C/lib/python3.11/site-packages $C/envs/locked \
    /home/u/.conda/environments.txt $VS/nvidia_cublas_cu12-12.4.5.8.dist-info \
    $VS/torch $V/pyvenv.cfg /opt/lib2/libcudnn.so.8; do
	chmod 000 "$FX$p"
done

set -- HOME=/home/u VIRTUAL_ENV=$V CONDA_PREFIX=$C \
    LD_LIBRARY_PATH=/opt/lib:$TK/lib64:/opt/lib2 PATH=$V/bin:$TK/bin

hostile_run "doctor --json" "doctor --json" "$@"
denied() {
	like "$(hostile_note "$1")" "${3:-Permission denied}" "$2"
}
denied $L "the system library directory is noted"
denied /opt/lib "the LD_LIBRARY_PATH directory is noted"
denied $TK/lib64 "the toolkit's lib64 is noted"
denied $TK/version.json "version.json is noted"
denied $C/conda-meta "conda-meta is noted"
denied $C/lib/python3.11/site-packages "the conda site-packages is noted"
denied $C/envs/locked "the locked conda environment is noted"
denied /home/u/.conda/environments.txt "environments.txt is noted"
denied $V/pyvenv.cfg "pyvenv.cfg is noted"
like "$(fx_jq '.facts.driver.unreadable.module_version')" 'Permission denied' \
    "/proc/driver/nvidia/version is unreadable, with why"
like "$(fx_jq '.facts.gpus_probe.unreadable.pci_bus')" 'Permission denied' \
    "/sys/bus/pci/devices is unreadable, not an empty bus"
lacks_code NO_NVIDIA_GPU "an unreadable PCI bus is not 'no GPU'"
like "$(hostile_notes_like '^/etc/ld\.so\.conf')" 'Permission denied' "ld.so.conf.d is noted"
like "$(fx_py_env $V '.packages[] | select(.name == "nvidia_cublas_cu12") | .metadata_error')" \
    'Permission denied' "the unreadable dist-info is a metadata_error"
like "$(hostile_notes_like "^$VS/torch")" 'Permission denied' "torch's package directory is noted"
# A directory that cannot be searched hides whether a file is there: the
# loader passes over it as over a missing file, and no broken library,
# let alone one to remove, may be made up from it.
is "$(fx_jq '[.findings[] | select(.code == "BROKEN_LIBRARY") | .evidence[]] | join("\n")')" \
    "/opt/lib2/libcudnn.so.8 (LD_LIBRARY_PATH entry /opt/lib2): Permission denied; passed over" \
    "the only broken library is the unreadable file, none is made up from unsearchable directories"
like "$(fx_jq '.findings[] | select(.code == "LIBCUDA_NOT_FOUND") | .evidence[]')" \
    '/opt/lib \(the directory cannot be searched: Permission denied\)' \
    "LIBCUDA_NOT_FOUND says which directories could not be searched"

hostile_run "doctor (text)" doctor "$@"
like "$(cat "$FX_OUT")" 'Permission denied' "the text report names the problem"

hostile_run "why libcudnn.so.9" "why libcudnn.so.9" "$@"
like "$(cat "$FX_OUT")" '^ +1\. LD_LIBRARY_PATH +/opt/lib: not found \(the directory cannot be searched: Permission denied\)$' \
    "the unsearchable directory is a step the loader passes, with why"
unlike "$(cat "$FX_OUT")" 'BROKEN_LIBRARY' "... not a broken library"

hostile_run "why --json libcudnn.so.8" "why --json libcudnn.so.8" "$@"
is "$(fx_jq '[.steps[] | select(.result == "skipped") | .path] | join(" ")')" \
    /opt/lib2/libcudnn.so.8 "an unreadable library file is passed over"
is "$(fx_jq '[.findings[] | select(.code == "BROKEN_LIBRARY") | .fix[]] | join("\n")')" \
    "# the loader cannot read the file; make it readable (or remove it):
sudo chmod a+r -- /opt/lib2/libcudnn.so.8" "the fix makes it readable, it does not remove it"

hostile_run "env --shell sh" "env --shell sh" "$@"
ok "the script is valid sh" sh -n "$FX_OUT"

done_testing
