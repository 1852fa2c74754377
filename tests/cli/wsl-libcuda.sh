#!/bin/sh
# WSL's unversioned libcuda.so: cuDNN 8 (libcudnn_cnn_infer.so.8) and some
# frameworks dlopen("libcuda.so"). WSL has it only in /usr/lib/wsl/lib,
# and ldconfig files only the SONAME libcuda.so.1 in ld.so.cache, so the
# name resolves only through LD_LIBRARY_PATH: WSL_LIBCUDA (an error) with
# that fix, not an optional-library note. The cache is ldconfig's own
# where this runs as root, else the same entries written by mkldcache.py.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_env.sh"
. "$TESTS_SRCDIR/lib/fx_toolkit.sh"
. "$TESTS_SRCDIR/lib/fx_gpu.sh"

# A WSL 2 tree as the distribution sets it up: ld.wsl.conf lists
# /usr/lib/wsl/lib, which holds the Windows driver's libcuda.so (a real
# file with SONAME libcuda.so.1), libcuda.so.1 and libcuda.so.1.1.
wsl_tree() {
	fx_new
	fx_file /proc/sys/kernel/osrelease "5.15.153.1-microsoft-standard-WSL2"
	fx_file /dev/dxg ""
	fx_so /usr/lib/wsl/lib/libcuda.so.1.1 libcuda.so.1
	fx_link libcuda.so.1.1 /usr/lib/wsl/lib/libcuda.so.1
	fx_so /usr/lib/wsl/lib/libcuda.so libcuda.so.1
	fx_so /usr/lib/wsl/lib/libnvidia-ml.so.1 libnvidia-ml.so.1
	fx_file /etc/ld.so.conf "include /etc/ld.so.conf.d/*.conf"
	fx_file /etc/ld.so.conf.d/x86_64-linux-gnu.conf "/usr/lib/x86_64-linux-gnu"
	fx_file /etc/ld.so.conf.d/ld.wsl.conf "/usr/lib/wsl/lib"
}

# The cache ldconfig makes of the tree.
make_cache() {
	if [ "$(id -u)" = 0 ] && command -v ldconfig >/dev/null 2>&1 &&
	    ldconfig -X -r "$FX" -f /etc/ld.so.conf -C /etc/ld.so.cache 2>/dev/null; then
		return 0
	fi
	{
		echo "format new"
		echo "entry libcuda.so.1 0x303 /usr/lib/wsl/lib/libcuda.so.1"
		echo "entry libnvidia-ml.so.1 0x303 /usr/lib/wsl/lib/libnvidia-ml.so.1"
		for l in "$FX"/usr/lib/x86_64-linux-gnu/libcudnn*.so.8; do
			[ -e "$l" ] || continue
			echo "entry ${l##*/} 0x303 /usr/lib/x86_64-linux-gnu/${l##*/}"
		done
	} > "$FX.spec"
	python3 "$TESTS_SRCDIR/lib/mkldcache.py" "$FX.spec" "$FX/etc/ld.so.cache"
}

# 1. cuDNN 8.9.7 installed system-wide (split libraries), nothing else.
wsl_tree
fx_cudnn /usr/lib/x86_64-linux-gnu 8.9.7 split
make_cache || skip_all "cannot make an ld.so.cache"
fx_doctor
fx_ran_ok
is "$(fx_jq '.facts.libraries[] | select(.soname == "libcuda.so.1") | .resolved')" \
    /usr/lib/wsl/lib/libcuda.so.1 "libcuda.so.1 resolves to WSL's copy"
is "$(fx_jq '.facts.libraries[] | select(.soname == "libcuda.so") | .resolved')" null \
    "the unversioned libcuda.so does not resolve (never cached by that name)"
has_code WSL_LIBCUDA "cuDNN 8 on WSL without libcuda.so reachable: WSL_LIBCUDA"
is "$(fx_code_field WSL_LIBCUDA .severity)" error "... an error"
like "$(fx_code_field WSL_LIBCUDA .detail)" 'dlopen\("libcuda.so"\)' "... says cuDNN loads the unversioned name"
like "$(fx_code_field WSL_LIBCUDA .evidence)" '^cuDNN 8\.9\.7 in /usr/lib/x86_64-linux-gnu dlopens "libcuda.so"$' \
    "the evidence names the cuDNN 8 that needs it"
like "$(fx_code_field WSL_LIBCUDA .evidence)" '^/usr/lib/wsl/lib/libcuda.so exists' "... and WSL's copy"
like "$(fx_code_field WSL_LIBCUDA .fix)" '^export LD_LIBRARY_PATH=/usr/lib/wsl/lib"\$\{LD_LIBRARY_PATH:\+:\$LD_LIBRARY_PATH\}"$' \
    "the fix puts /usr/lib/wsl/lib on LD_LIBRARY_PATH"
lacks_code OPTIONAL_LIB_MISSING "not an optional-library note"

# Following the fix clears it.
FX_ENV=LD_LIBRARY_PATH=/usr/lib/wsl/lib
fx_doctor
lacks_code WSL_LIBCUDA "with /usr/lib/wsl/lib on LD_LIBRARY_PATH, no WSL_LIBCUDA"
is "$(fx_jq '.facts.libraries[] | select(.soname == "libcuda.so") | .resolved')" \
    /usr/lib/wsl/lib/libcuda.so "... libcuda.so resolves there"
FX_ENV=

# 2. cuDNN 9 needs no unversioned name: nothing to say.
wsl_tree
fx_cudnn /usr/lib/x86_64-linux-gnu 9.1.0 split
make_cache || skip_all "cannot make an ld.so.cache"
fx_doctor
lacks_code WSL_LIBCUDA "cuDNN 9 on WSL: no WSL_LIBCUDA"

# 3. No cuDNN 8 at all: nothing either.
wsl_tree
make_cache || skip_all "cannot make an ld.so.cache"
fx_doctor
lacks_code WSL_LIBCUDA "WSL without cuDNN 8: no WSL_LIBCUDA"

done_testing
