#!/bin/sh
# `cudawiz env --check FILE`: the script sourced in its shell, every need
# resolved before and inside it, the verdict need by need; a script that
# fixes a SONAME_NOT_FOUND, one that fixes nothing, one that fails, files
# that are not scripts; and the live runtime check on this machine's real
# CUDA runtime where there is one.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_toolkit.sh"
. "$TESTS_SRCDIR/lib/fx_framework.sh"

P=/usr/bin:/bin
j() { jq -r "$1" "$FX_OUT" 2>/dev/null; }

# TensorFlow in a conda env whose python has no RPATH (SONAME_NOT_FOUND
# for its CUDA 11 libraries). The environment's path is a real directory
# of this machine too, named the same inside the fixture tree: the script
# runs in this machine's shell, which drops directories that do not exist
# here.
fx_new
H=$FX	# a real directory of this machine, removed at exit
E=$H/h/miniconda3/envs/tf
fx_tf_conda "$E" norpath	# the tree, in a new $FX
mkdir -p "$E/lib"
T=$FX/out
mkdir -p "$T"

fx_doctor_env PATH=$P CONDA_PREFIX="$E"
has_code SONAME_NOT_FOUND "before: SONAME_NOT_FOUND for TensorFlow's libraries"

fx_cmd_env env PATH=$P CONDA_PREFIX="$E" SHELL=/bin/sh -- --shell sh -o "$T/fix.sh"
is "$FX_RC" 0 "env -o fix.sh: exit 0"
ok "... the script is written" test -s "$T/fix.sh"
like "$(cat "$FX_OUT")" "wrote $T/fix.sh" "... and says where"
undo=$(sed -n 's/^undo: *//p' "$FX_OUT")
like "$(cat "$T/fix.sh")" "^$undo\(\) \{" "... the undo it names is the function the script defines"

fx_cmd_env env PATH=$P CONDA_PREFIX="$E" SHELL=/bin/sh -- --check "$T/fix.sh" --json
is "$FX_RC" 0 "env --check fix.sh: exit 0 (everything resolves inside it)"
is "$(j .schema)" "cudawiz/env-check/1" "... schema cudawiz/env-check/1"
is "$(j .format)" sh "... read the format from the script's header"
is "$(j .ok)" true "... ok"
is "$(j '[.needs[] | select(.soname == "libcudart.so.11.0" and .framework != null)][0].before.state')" \
    missing "... libcudart.so.11.0 for TensorFlow: not found before"
is "$(j '[.needs[] | select(.soname == "libcudart.so.11.0" and .framework != null)][0].after.resolved')" \
    "$E/lib/libcudart.so.11.0" "... after: resolves to the env's own copy"
is "$(j '[.needs[] | select(.soname == "libcudart.so.11.0" and .framework != null)][0].verdict')" \
    fixed "... verdict fixed"
is "$(j '[.needs[] | select(.framework != null and .optional == false and .after.state != "resolves")] | length')" \
    0 "... every need TensorFlow has resolves after"
like "$(j '.findings.gone | join(" ")')" "SONAME_NOT_FOUND" "... SONAME_NOT_FOUND is gone"
is "$(j .variables.LD_LIBRARY_PATH.before)" null "... LD_LIBRARY_PATH unset before"
is "$(j .variables.LD_LIBRARY_PATH.after)" "$E/lib" "... exactly the env's lib/ after"
like "$(j .live_skipped)" "under --root" "... nothing loaded live under --root"

fx_cmd_env env PATH=$P CONDA_PREFIX="$E" SHELL=/bin/sh -- --check "$T/fix.sh"
is "$FX_RC" 0 "the text view: exit 0"
like "$(cat "$FX_OUT")" "libcudart\.so\.11\.0 for tensorflow 2\.10\.0 .*: FIXED" \
    "... marks the need FIXED"
like "$(cat "$FX_OUT")" "before: not found" "... not found before"
like "$(cat "$FX_OUT")" "Result: inside the script's environment every library" \
    "... and says the result"

# A script that changes nothing: the needs are still broken, exit 1.
printf '# cudawiz-format: sh\n:\n' > "$T/noop.sh"
fx_cmd_env env PATH=$P CONDA_PREFIX="$E" -- --check "$T/noop.sh" --json
is "$FX_RC" 1 "a script that fixes nothing: exit 1"
is "$(j '[.needs[] | select(.soname == "libcudart.so.11.0" and .framework != null)][0].verdict')" \
    still_broken "... verdict still_broken"
is "$(j .ok)" false "... ok false"

# A script that breaks what worked: the toolkit's runtime is reached
# through LD_LIBRARY_PATH alone, and the script unsets it.
printf '# cudawiz-format: sh\nunset LD_LIBRARY_PATH\n' > "$T/bad.sh"
fx_cmd_env env PATH=$P LD_LIBRARY_PATH=/usr/local/cuda-12.4/lib64 -- --check "$T/bad.sh" --json
is "$FX_RC" 1 "a script that unsets what found the runtime: exit 1"
is "$(j '[.needs[] | select(.soname == "libcudart.so.12" and .framework == null)][0].verdict')" \
    broken "... libcudart.so.12: broken by the script"

# Scripts that cannot be checked.
printf '# cudawiz-format: sh\nif then fi\n' > "$T/syntax.sh"
fx_cmd_env env PATH=$P -- --check "$T/syntax.sh"
is "$FX_RC" 2 "a script the shell rejects: exit 2"
like "$(cat "$FX.stderr")" "sourcing .*syntax\.sh in .* failed \(exit status [0-9]+\)" \
    "... saying the shell failed, with its status"
printf 'just text\n' > "$T/notes.txt"
fx_cmd_env env PATH=$P -- --check "$T/notes.txt"
is "$FX_RC" 2 "a file that says no shell: exit 2"
like "$(cat "$FX.stderr")" "no 'cudawiz-format:' line" "... saying so"
fx_cmd_env env PATH=$P -- --check "$T/gone.sh"
is "$FX_RC" 2 "a missing file: exit 2"
like "$(cat "$FX.stderr")" "gone\.sh: No such file or directory" "... with the errno text"
printf '# cudawiz-format: sh\nwhile :; do :; done\n' > "$T/loop.sh"
fx_cmd_env env PATH=$P -- --check "$T/loop.sh" --timeout 1
is "$FX_RC" 2 "a script that never ends: exit 2 after --timeout"
like "$(cat "$FX.stderr")" "did not finish within 1 s" "... saying so"

# The live check on this machine's real runtime (no --root): a script
# that puts the toolkit's lib64 first, checked by loading libcudart by
# soname inside it. Without a driver the runtime answers 35.
cudart=$(ls /usr/local/cuda/lib64/libcudart.so.[0-9]* 2>/dev/null | head -n 1)
if [ -z "$cudart" ] || ! [ -x "${CUDAWIZ_HELPER:-}" ]; then
	skip "the live check" "no CUDA toolkit under /usr/local/cuda or no helper"
else
	printf '# cudawiz-format: sh\nexport LD_LIBRARY_PATH=/usr/local/cuda/lib64\n' > "$T/real.sh"
	env -i PATH=$P CUDAWIZ_HELPER="$CUDAWIZ_HELPER" HOME="$T" \
	    ${ASAN_OPTIONS:+ASAN_OPTIONS="$ASAN_OPTIONS"} \
	    "$CUDAWIZ" env --check "$T/real.sh" --json > "$FX_OUT" 2> "$FX.stderr"
	soname=$(j '[.live[].soname][0]')
	like "$soname" "^libcudart\.so\.[0-9]+$" "live: the runtime the script resolves is loaded by soname"
	after=$(j '.live[0].after.name')
	if [ -e /proc/driver/nvidia/version ]; then
		ok "live: a driver is present: the runtime answered" test "$after" != null
	else
		is "$after" cudaErrorInsufficientDriver \
		    "live: no driver here: cudaErrorInsufficientDriver inside the script's environment"
		is "$(j '.live[0].after.code')" 35 "... code 35"
	fi
fi

done_testing
