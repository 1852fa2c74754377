#!/bin/sh
# A hostile tree: ELF libraries whose DT_NEEDED entries go round — liba
# needs libb needs liba, a cycle of three, a library that needs itself,
# and torch's libtorch_cuda.so and libc10_cuda.so needing each other. The
# loader loads each object once and answers a name it already loaded from
# memory; cudawiz's closure must do the same and end, in why and in
# doctor's framework check.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_framework.sh"
. "$TESTS_SRCDIR/lib/fx_hostile.sh"

hostile_baseline

fx_new
D=/opt/lib
fx_lib $D/liba.so.1 liba.so.1 libb.so.1 || skip_all "cannot build shared libraries with $FIXTURE_CC"
fx_lib $D/libb.so.1 libb.so.1 liba.so.1
fx_lib $D/libx.so.1 libx.so.1 liby.so.1
fx_lib $D/liby.so.1 liby.so.1 libz.so.1
fx_lib $D/libz.so.1 libz.so.1 libx.so.1 libnone.so.7
fx_lib $D/libself.so.1 libself.so.1 libself.so.1
# What $FIXTURE_CC links every library against.
fx_so $D/libc.so.6 libc.so.6
fx_healthy_gpu
fx_toolkit 12.4.1
V=/home/u/venvs/v
fx_venv_env $V 3.11
S=$FX_SITE
fx_torch $S 2.4.0 12.4 -r '$ORIGIN' libc10_cuda.so libcudart.so.12
fx_lib $S/torch/lib/libc10_cuda.so libc10_cuda.so -r '$ORIGIN' libtorch_cuda.so libcudart.so.12

set -- LD_LIBRARY_PATH=$D:/usr/local/cuda-12.4/lib64 VIRTUAL_ENV=$V PATH=$V/bin

# The closure as needer>need=how, libc left out.
closure() {
	fx_jq '[.closure[] | select(.name != "libc.so.6") |
	    "\(.needed_by | sub(".*/"; ""))>\(.name)=\(.via)"] | join(" ")'
}

hostile_run "why liba.so.1" "why --json liba.so.1" "$@"
is "$FX_RC" 0 "liba.so.1 loads"
is "$(closure)" "liba.so.1>libb.so.1=ld_library_path libb.so.1>liba.so.1=loaded" \
    "libb is searched for, liba is answered by the object already loaded"

hostile_run "why libx.so.1" "why --json libx.so.1" "$@"
is "$FX_RC" 1 "libx.so.1 loads, but libz's need libnone.so.7 does not"
is "$(closure)" "libx.so.1>liby.so.1=ld_library_path liby.so.1>libz.so.1=ld_library_path libz.so.1>libx.so.1=loaded libz.so.1>libnone.so.7=null" \
    "the cycle of three is walked once, breadth first"
is "$(fx_jq '[.findings[].code] | join(" ")')" SONAME_NOT_FOUND \
    "the need that is missing is the finding"

hostile_run "why libself.so.1" "why --json libself.so.1" "$@"
is "$(closure)" "libself.so.1>libself.so.1=loaded" "a library that needs itself is loaded once"

hostile_run "why --from libb.so.1 (text)" "why" "$@" -- --from $D/libb.so.1
is "$FX_RC" 0 "libb.so.1's closure loads"
like "$(cat "$FX_OUT")" "liba\\.so\\.1 => $D/liba\\.so\\.1 \\(LD_LIBRARY_PATH\\)" "liba is found"
lines=$(wc -l < "$FX_OUT")
ok "the answer is short ($lines lines)" [ "$lines" -le 10 ]

hostile_run "doctor --json" "doctor --json" "$@"
needs=$(jq -r --arg p "$V" '.facts.python_envs[] | select(.prefix == $p) |
    .frameworks[] | select(.name == "pytorch") | .needs[] | "\(.soname)=\(.resolved)"' "$FX_OUT")
like "$needs" '^libcudart\.so\.12=/usr/local/cuda-12\.4/lib64/libcudart\.so\.12$' \
    "torch's closure through the libtorch_cuda/libc10_cuda cycle reaches libcudart"
is "$(printf '%s\n' "$needs" | grep -c '^libcudart\.so\.12=')" 1 "libcudart is one need, not one per turn"

hostile_run "doctor (text)" doctor "$@"

done_testing
