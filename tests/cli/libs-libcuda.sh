#!/bin/sh
# libcuda on fixture trees: LIBCUDA_NOT_FOUND when the driver runs but its
# libcuda.so.1 is off the search path (and not when rules_gpu already says
# the module is not loaded), STUB_LIBCUDA for the toolkit's stub on the
# path (with the real CUDA 13 stub where this machine has one), and the
# WSL cases.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_env.sh"

lib() {	# SONAME FILTER
	fx_jq "[.facts.libraries[] | select(.soname == \"$1\")][0] | $2"
}

field() {	# CODE FILTER: arrays joined with newlines
	jq -r --arg c "$1" "[.findings[] | select(.code == \$c)][0] | $2 |
	    if type == \"array\" then join(\"\\n\") else tostring end" \
	    "$FX_OUT" 2>/dev/null
}

# A loaded driver whose libraries live in a directory nobody configured
# (a Colab-like /usr/lib64-nvidia).
fx_new
fx_healthy_gpu
rm -f "$FX"/usr/lib/x86_64-linux-gnu/libcuda* "$FX"/usr/lib/x86_64-linux-gnu/libnvidia-ml*
fx_so /usr/lib64-nvidia/libcuda.so.580.65.06 libcuda.so.1
fx_link libcuda.so.580.65.06 /usr/lib64-nvidia/libcuda.so.1
fx_so /usr/lib64-nvidia/libnvidia-ml.so.580.65.06 libnvidia-ml.so.1
fx_link libnvidia-ml.so.580.65.06 /usr/lib64-nvidia/libnvidia-ml.so.1
fx_doctor
fx_ran_ok
has_code LIBCUDA_NOT_FOUND "a loaded driver with libcuda.so.1 off the path: LIBCUDA_NOT_FOUND"
is "$FX_RC" 1 "... an error: exit 1"
like "$(field LIBCUDA_NOT_FOUND .detail)" 'installed in /usr/lib64-nvidia' \
    "the detail names the directory"
like "$(field LIBCUDA_NOT_FOUND .evidence)" '^/usr/lib64-nvidia/libcuda.so.1 exists, off the search path$' \
    "the evidence names the copy"
like "$(field LIBCUDA_NOT_FOUND .fix)" \
    '^export LD_LIBRARY_PATH=/usr/lib64-nvidia"\$\{LD_LIBRARY_PATH:\+:\$LD_LIBRARY_PATH\}"$' \
    "the fix prepends it to LD_LIBRARY_PATH"
like "$(field LIBCUDA_NOT_FOUND .fix)" '/etc/ld.so.conf.d/usr-lib64-nvidia.conf' \
    "or lists it for ldconfig"
lacks_code SONAME_NOT_FOUND "NVML is not reported on its own"
lacks_code SONAME_OFF_SEARCH_PATH "nor as off the path: one cause, one finding"

# Following the fix clears it.
FX_ENV="LD_LIBRARY_PATH=/usr/lib64-nvidia"
fx_doctor
lacks_code LIBCUDA_NOT_FOUND "with the fix applied, libcuda.so.1 resolves"
is "$(lib libcuda.so.1 .via)" ld_library_path "... through LD_LIBRARY_PATH"
FX_ENV=

# The module is not loaded: DRIVER_NOT_LOADED says it, LIBCUDA_NOT_FOUND not.
rm -rf "$FX/proc/driver/nvidia" "$FX/sys/module/nvidia"
fx_doctor
has_code DRIVER_NOT_LOADED "an unloaded module is rules_gpu's"
lacks_code LIBCUDA_NOT_FOUND "... and not said twice"

# No GPU and no driver: nothing about libcuda.
fx_new
fx_doctor
lacks_code LIBCUDA_NOT_FOUND "an empty tree: no LIBCUDA_NOT_FOUND"

# A stubs directory on LD_LIBRARY_PATH with a hand-made libcuda.so.1 link.
fx_new
fx_healthy_gpu
fx_toolkit 12.4.1
fx_link libcuda.so /usr/local/cuda-12.4/targets/x86_64-linux/lib/stubs/libcuda.so.1
FX_ENV="LD_LIBRARY_PATH=/usr/local/cuda-12.4/lib64/stubs:/usr/local/cuda-12.4/lib64"
fx_doctor
has_code STUB_LIBCUDA "the stub first on LD_LIBRARY_PATH: STUB_LIBCUDA"
is "$(field STUB_LIBCUDA .severity)" error "... an error: it wins libcuda.so.1"
is "$(lib libcuda.so.1 .stub)" true "the library fact says the winner is a stub"
like "$(field STUB_LIBCUDA .evidence)" \
    '^libcuda.so.1 resolves to /usr/local/cuda-12.4/lib64/stubs/libcuda.so.1 \(LD_LIBRARY_PATH entry /usr/local/cuda-12.4/lib64/stubs\)' \
    "the evidence names the step and the file"
like "$(field STUB_LIBCUDA .fix)" '^export LD_LIBRARY_PATH=/usr/local/cuda-12.4/lib64$' \
    "the fix is LD_LIBRARY_PATH without the stubs directory"
is "$(fx_codes | grep -c STUB_LIBCUDA)" 1 "one finding for both names and the directory"

# The fix, applied: the driver's libcuda wins again.
FX_ENV="LD_LIBRARY_PATH=/usr/local/cuda-12.4/lib64"
fx_doctor
lacks_code STUB_LIBCUDA "without the stubs directory, no STUB_LIBCUDA"

# The real CUDA stub, where this machine has one.
real_stub=/usr/local/cuda/lib64/stubs/libcuda.so
if [ -f "$real_stub" ]; then
	fx_new
	fx_healthy_gpu
	fx_dir /opt/cuda/lib64/stubs
	cp "$real_stub" "$FX/opt/cuda/lib64/stubs/libcuda.so"
	FX_ENV="LD_LIBRARY_PATH=/opt/cuda/lib64/stubs"
	fx_doctor
	is "$(lib libcuda.so .resolved)" /opt/cuda/lib64/stubs/libcuda.so \
	    "the real stub answers dlopen(\"libcuda.so\")"
	is "$(lib libcuda.so .file_soname)" libcuda.so.1 "... its SONAME is libcuda.so.1"
	is "$(field STUB_LIBCUDA .severity)" warning \
	    "the real stub winning only libcuda.so: a warning"
	is "$(lib libcuda.so.1 .resolved)" /usr/lib/x86_64-linux-gnu/libcuda.so.1 \
	    "... libcuda.so.1 is still the driver's"
	lacks_code SONAME_SPOOF_SYMLINK "an unversioned name claims no version"
	# A link made by hand to the real stub wins libcuda.so.1.
	rm -f "$FX"/usr/lib/x86_64-linux-gnu/libcuda.so*
	fx_link /opt/cuda/lib64/stubs/libcuda.so /usr/lib/x86_64-linux-gnu/libcuda.so.1
	FX_ENV=
	fx_doctor
	is "$(field STUB_LIBCUDA .severity)" error "a libcuda.so.1 link to the real stub: an error"
	like "$(field STUB_LIBCUDA .fix)" '^sudo rm -- /usr/lib/x86_64-linux-gnu/libcuda.so.1$' \
	    "the fix removes the link"
	lacks_code LIBCUDA_NOT_FOUND "and it is not called missing"
else
	for t in 1 2 3 4 5 6 7 8; do
		skip "the real CUDA stub" "no $real_stub on this machine"
	done
fi

# WSL: /usr/lib/wsl/lib holds the Windows driver's libcuda; not in the search.
fx_new
fx_file /proc/sys/kernel/osrelease "5.15.153.1-microsoft-standard-WSL2"
fx_file /dev/dxg ""
fx_so /usr/lib/wsl/lib/libcuda.so.1.1 libcuda.so.1
fx_link libcuda.so.1.1 /usr/lib/wsl/lib/libcuda.so.1
fx_so /usr/lib/wsl/lib/libnvidia-ml.so.1 libnvidia-ml.so.1
fx_file /etc/ld.so.conf "include /etc/ld.so.conf.d/*.conf"
fx_file /etc/ld.so.conf.d/x86_64-linux-gnu.conf "/usr/lib/x86_64-linux-gnu"
fx_doctor
has_code WSL_LIBCUDA "WSL without /usr/lib/wsl/lib in the search: WSL_LIBCUDA"
lacks_code LIBCUDA_NOT_FOUND "... not LIBCUDA_NOT_FOUND as well"
like "$(field WSL_LIBCUDA .fix)" "^printf '%s\\\\n' /usr/lib/wsl/lib \\| sudo tee /etc/ld.so.conf.d/ld.wsl.conf$" \
    "the fix restores ld.wsl.conf"
like "$(field WSL_LIBCUDA .evidence)" '^/usr/lib/wsl/lib/libcuda.so.1 exists, off the search path$' \
    "the evidence names WSL's libcuda"

fx_file /etc/ld.so.conf.d/ld.wsl.conf "/usr/lib/wsl/lib"
fx_doctor
lacks_code WSL_LIBCUDA "with ld.wsl.conf, WSL's libcuda is found"
is "$(lib libcuda.so.1 .resolved)" /usr/lib/wsl/lib/libcuda.so.1 "... from /usr/lib/wsl/lib"
is "$(fx_codes | grep -E 'SONAME|LIBCUDA|BROKEN|SHADOW|MIXED|OPTIONAL' | tr '\n' ' ')" "" \
    "... and no other loader finding"

# A Linux driver installed inside WSL, listed first.
fx_so /usr/lib/x86_64-linux-gnu/libcuda.so.535.104.05 libcuda.so.1
fx_link libcuda.so.535.104.05 /usr/lib/x86_64-linux-gnu/libcuda.so.1
fx_file /etc/ld.so.conf.d/0-linux.conf "/usr/lib/x86_64-linux-gnu"
fx_doctor
has_code WSL_LIBCUDA "a Linux libcuda first inside WSL: WSL_LIBCUDA"
is "$(field WSL_LIBCUDA .severity)" error "... an error"
like "$(field WSL_LIBCUDA .evidence)" '^shadowed: /usr/lib/wsl/lib/libcuda.so.1$' \
    "the evidence names WSL's copy as shadowed"
like "$(field WSL_LIBCUDA .fix)" '^dpkg -S /usr/lib/x86_64-linux-gnu/libcuda.so.535.104.05$' \
    "the fix finds the Linux driver's package"
lacks_code LIB_SHADOWED "... and LIB_SHADOWED does not repeat it"

done_testing
