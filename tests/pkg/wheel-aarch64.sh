#!/bin/sh
# The Arm wheel (make wheel PORTABLE_ARCH=aarch64, the packages gate's
# wheel-aarch64 goal): pip takes it for an aarch64 manylinux_2_28 system
# (--platform, into a --target folder), its binaries are aarch64 ELF
# files, and under qemu-user the bundled cudawiz prints its version and,
# run by the Python API, a doctor report the API reads.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/pkg/wheel-common.sh"

py=${WHEEL_TEST_PYTHON:-/usr/bin/python3}
[ -x "$py" ] || skip_all "$py is missing (Debian package: python3)"
"$py" -m pip --version >/dev/null 2>&1 ||
    skip_all "$py has no pip (Debian package: python3-pip)"
command -v qemu-aarch64 >/dev/null 2>&1 ||
    skip_all "qemu-aarch64 is missing (Debian package: qemu-user)"
sysroot=
for d in /usr/aarch64-linux-gnu /; do
	[ -e "$d/lib/ld-linux-aarch64.so.1" ] && { sysroot=$d; break; }
done
[ -n "$sysroot" ] ||
    skip_all "no aarch64 glibc to run the binary with (Debian package: libc6-arm64-cross)"

wheel_find aarch64 portable wheel-aarch64

work=$(mktemp -d "$FX_TMP/wheel-aarch64.XXXXXX") || exit 99
fx_dirs="${fx_dirs:-} $work"
wheel_pip_env
"$py" -m pip install --quiet --no-index --no-deps --only-binary=:all: \
    --platform manylinux_2_28_aarch64 --target "$work/site" "$whl" \
    > "$work/pip.log" 2>&1
rc=$?
is "$rc" 0 "pip installs it for an aarch64 manylinux_2_28 system"
[ "$rc" = 0 ] || sed 's/^/#   /' "$work/pip.log" | tail -n 20

bin=$work/site/cudawiz/_bin
machines=$(for f in "$bin/cudawiz" "$bin/cudawiz-verify"; do
	od -An -tu2 -j18 -N2 "$f" 2>/dev/null | tr -d ' '
done | tr '\n' ' ')
is "$machines" "183 183 " "both bundled binaries are aarch64 (ELF machine 183)"

unset CUDAWIZ_BINARY CUDAWIZ_HELPER
like "$(qemu-aarch64 -L "$sysroot" "$bin/cudawiz" --version 2>&1 | head -n 1)" \
    "^cudawiz $version( |\$)" "under qemu-aarch64 it is cudawiz $version"

# The API runs it through a wrapper (no binfmt_misc is assumed here).
printf '#!/bin/sh\nexec qemu-aarch64 -L %s %s/cudawiz "$@"\n' "$sysroot" "$bin" \
    > "$work/cudawiz-qemu"
chmod +x "$work/cudawiz-qemu"
fx_new
fx_healthy_gpu
fx_dir /usr/bin
got=$(env -i LC_ALL=C PATH=/usr/bin:/bin CUDA_VISIBLE_DEVICES=-1 \
    CUDAWIZ_BINARY="$work/cudawiz-qemu" PYTHONPATH="$work/site" \
    PYTHONDONTWRITEBYTECODE=1 "$py" -c '
import sys, cudawiz
r = cudawiz.doctor(root=sys.argv[1], matrix=sys.argv[2])
print(" ".join(r.codes()), "html" if "cudawiz-report" in r._repr_html_() else "")
' "$FX" "$FX_MATRIX" 2>&1)
like "$got" "NO_VISIBLE_DEVICES.* html\$" \
    "cudawiz.doctor() reads the aarch64 binary's report"

done_testing
