#!/bin/sh
# The library search in doctor: LD_LIBRARY_PATH, then the ld.so.conf
# directories, then the default ones; the first regular file wins, a
# dangling link is passed over, runtime and cuDNN sonames found in the
# search directories are resolved too, real file names are not sonames.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"

lib() {	# SONAME FIELD
	fx_jq "[.facts.libraries[] | select(.soname == \"$1\")][0].$2"
}

fx_new
# The driver in a default directory.
fx_so /usr/lib/x86_64-linux-gnu/libcuda.so.580.65.06 libcuda.so.1
fx_link libcuda.so.580.65.06 /usr/lib/x86_64-linux-gnu/libcuda.so.1
# A runtime in a default directory and a newer copy on LD_LIBRARY_PATH.
fx_so /usr/lib/x86_64-linux-gnu/libcudart.so.12.0.146 libcudart.so.12
fx_link libcudart.so.12.0.146 /usr/lib/x86_64-linux-gnu/libcudart.so.12
fx_so /opt/rt/libcudart.so.12.4.127 libcudart.so.12
fx_link libcudart.so.12.4.127 /opt/rt/libcudart.so.12
fx_link rt /opt/rt-link
# A dangling libcudart.so.11.0 on LD_LIBRARY_PATH, the real one later.
fx_link libcudart.so.11.8.89 /opt/rt/libcudart.so.11.0
fx_so /usr/lib/x86_64-linux-gnu/libcudart.so.11.8.89 libcudart.so.11.0
fx_link libcudart.so.11.8.89 /usr/lib/x86_64-linux-gnu/libcudart.so.11.0
# cuDNN in an ld.so.conf directory.
fx_so /opt/cudnn/lib/libcudnn.so.9.1.0 libcudnn.so.9
fx_link libcudnn.so.9.1.0 /opt/cudnn/lib/libcudnn.so.9
fx_file /etc/ld.so.conf "/opt/cudnn/lib"

FX_ENV="LD_LIBRARY_PATH=/nowhere::/opt/rt-link"
fx_doctor
ok "doctor ran (exit $FX_RC)" [ "$FX_RC" -le 1 ]
is "$(lib libcuda.so.1 resolved)" /usr/lib/x86_64-linux-gnu/libcuda.so.1 \
    "libcuda.so.1 resolves in a default directory"
is "$(lib libcuda.so.1 via)" default "... via default"
is "$(lib libcuda.so.1 target)" /usr/lib/x86_64-linux-gnu/libcuda.so.580.65.06 \
    "... and its target is the real file"
is "$(lib libcudart.so.12 resolved)" /opt/rt-link/libcudart.so.12 \
    "LD_LIBRARY_PATH beats the default directories"
is "$(lib libcudart.so.12 via)" ld_library_path "... via ld_library_path"
is "$(lib libcudart.so.12 target)" /opt/rt/libcudart.so.12.4.127 \
    "... and the target is canonical"
is "$(lib libcudart.so.11.0 resolved)" /usr/lib/x86_64-linux-gnu/libcudart.so.11.0 \
    "a dangling link on LD_LIBRARY_PATH is passed over"
is "$(lib libcudnn.so.9 via)" ld.so.conf "cuDNN resolves via ld.so.conf"
is "$(lib libnvidia-ml.so.1 resolved)" null "a soname found nowhere resolves to null"
is "$(fx_jq '[.facts.libraries[].soname] | map(select(test("^libcudart.so.1[12]\\.[0-9]+\\.")))| length')" 0 \
    "real file names (libcudart.so.12.4.127) are not taken for sonames"
is "$(fx_jq '[.facts.libraries[].soname] | .[0:2] | join(",")')" \
    "libcuda.so.1,libnvidia-ml.so.1" "the driver's sonames come first"
like "$(fx_jq '.facts.notes | map(.problem) | join("\n")')" \
    'not searched under --root' "the empty entry is skipped under --root, with a note"

# Healthy: nothing on LD_LIBRARY_PATH, everything from the defaults.
FX_ENV=
fx_doctor
is "$(lib libcudart.so.12 resolved)" /usr/lib/x86_64-linux-gnu/libcudart.so.12 \
    "without LD_LIBRARY_PATH the default copy is found"
unlike "$(fx_jq '.facts.notes | map(.problem) | join("\n")')" 'not searched' \
    "no note about empty entries when there are none"

done_testing
