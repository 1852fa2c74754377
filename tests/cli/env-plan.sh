#!/bin/sh
# `cudawiz env`: the plan it builds from doctor's facts (the JSON view),
# with and without options, on fixture trees; its errors; and the fixes of
# doctor's findings that name it.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_toolkit.sh"
. "$TESTS_SRCDIR/lib/fx_framework.sh"

P=/usr/bin:/bin
j() { jq -r "$1" "$FX_OUT" 2>/dev/null; }

# TensorFlow 2.10 in a conda env whose python has no RPATH: its CUDA 11
# libraries sit in the env's lib/, which nothing searches.
tf_conda_norpath() {
	E=/home/u/miniconda3/envs/tf
	fx_tf_conda $E norpath
}

tf_conda_norpath
fx_cmd_env env PATH=$P CONDA_PREFIX=$E -- --json --shell sh
is "$FX_RC" 0 "env --json on TF in a conda env without RPATH: exit 0"
is "$(j .schema)" "cudawiz/env/1" "... schema cudawiz/env/1"
is "$(j '.plan.ld_library_path.prepend | join(" ")')" "$E/lib" \
    "... the plan puts the env's lib/ first on LD_LIBRARY_PATH"
is "$(j '.targets | join(" ")')" "$E" "... and serves that environment"
is "$(j '.unfixable | length')" 0 "... with nothing left unfixable"
is "$(j '.plan.ld_library_path.drop_stubs')" true "... stubs directories dropped"
is "$(j '.plan.ld_library_path.drop_missing')" true "... missing directories dropped"
is "$(j .plan.cuda_home.op)" keep "... CUDA_HOME left alone"
like "$(j '.plan.notes | join("\n")')" "put $E/lib first on LD_LIBRARY_PATH" \
    "... a note says why"
is "$(j .format)" sh "... format sh"
is "$(j .written)" null "... nothing written without -o"

# doctor's finding for it names the command.
fx_doctor_env PATH=$P CONDA_PREFIX=$E
like "$(fx_jq '.findings[] | select(.code == "SONAME_NOT_FOUND") | .fix[]')" \
    "^cudawiz env --python-env $E -o cuda-env\.sh && \. \./cuda-env\.sh$" \
    "SONAME_NOT_FOUND's fix names 'cudawiz env --python-env' for that env"

# Plain `cudawiz` off a terminal (a notebook cell): the report, then the
# commands to run next, the fix script first; `cudawiz doctor` has none.
fx_cmd_env "" PATH=$P CONDA_PREFIX=$E
like "$(cat "$FX_OUT")" "^Next:$" "plain cudawiz off a terminal ends with what to run next"
like "$(cat "$FX_OUT")" "^  cudawiz env --python-env $E -o cuda-env\.sh" \
    "... the environment's fix script first"
like "$(cat "$FX_OUT")" "^  cudawiz verify " "... then the live checks"
fx_cmd_env doctor PATH=$P CONDA_PREFIX=$E
unlike "$(cat "$FX_OUT")" "^Next:" "cudawiz doctor prints the report alone"

# Without --shell the format follows $SHELL; an unknown shell gets sh.
fx_cmd_env env PATH=$P SHELL=/usr/bin/fish -- --json
is "$(j .format)" fish "SHELL=/usr/bin/fish: a fish script"
fx_cmd_env env PATH=$P SHELL=/opt/bin/xonsh -- --json
is "$(j .format)" sh "SHELL=/opt/bin/xonsh (not a format): a POSIX sh script"
fx_cmd_env env PATH=$P -- --json
is "$(j .format)" sh "SHELL unset: a POSIX sh script"

# --python-env that is not an environment.
fx_cmd_env env PATH=$P -- --json --python-env /nowhere
is "$FX_RC" 2 "--python-env /nowhere: exit 2"
like "$(cat "$FX.stderr")" "no Python environment at '/nowhere'" "... saying so"

# Two toolkits, the older one's directories on PATH and LD_LIBRARY_PATH,
# CUDA_HOME pointing at it: --toolkit 12.4 switches everything.
fx_new
fx_healthy_gpu
fx_toolkit 12.4.1
fx_toolkit 11.8.0
fx_cmd_env env PATH=/usr/local/cuda-11.8/bin:$P \
    LD_LIBRARY_PATH=/usr/local/cuda-11.8/lib64:/usr/local/cuda-12.4/lib64/stubs \
    CUDA_HOME=/usr/local/cuda-11.8 -- --json --toolkit 12.4
is "$FX_RC" 0 "--toolkit 12.4: exit 0"
is "$(j .plan.name)" "cuda-12.4.1" "... the plan is named for it"
is "$(j .plan.cuda_home.op):$(j .plan.cuda_home.value)" "set:/usr/local/cuda-12.4" \
    "... CUDA_HOME set to its root"
is "$(j .plan.cuda_path.value)" "/usr/local/cuda-12.4" "... CUDA_PATH too"
is "$(j '.plan.path.prepend | join(" ")')" "/usr/local/cuda-12.4/bin" \
    "... its bin/ first on PATH"
like "$(j '.plan.ld_library_path.prepend | join(" ")')" "^/usr/local/cuda-12\.4/" \
    "... its library directory first on LD_LIBRARY_PATH"
is "$(j '.plan.path.remove | join(" ")')" "/usr/local/cuda-11.8/bin" \
    "... CUDA 11.8's bin/ taken out of PATH"
is "$(j '.plan.ld_library_path.remove | join(" ")')" "/usr/local/cuda-11.8/lib64" \
    "... and its lib64 out of LD_LIBRARY_PATH"
like "$(j '.plan.notes | join("\n")')" "stub libraries must never be loaded" \
    "... the stubs entry is named in the notes"
fx_cmd_env env PATH=/usr/local/cuda-11.8/bin:$P \
    LD_LIBRARY_PATH=/usr/local/cuda-11.8/lib64 -- --json --toolkit 12.4 --keep-other-cuda
is "$(j '.plan.ld_library_path.remove | length')" 0 \
    "--keep-other-cuda: nothing of 11.8 taken out"
fx_cmd_env env PATH=$P -- --json --toolkit /usr/local/cuda-11.8
is "$(j .plan.cuda_home.value)" "/usr/local/cuda-11.8" "--toolkit DIR picks by directory"
fx_cmd_env env PATH=$P -- --toolkit 99
is "$FX_RC" 2 "--toolkit 99: exit 2"
like "$(cat "$FX.stderr")" "no CUDA toolkit matches '99'; found: .*12\.4\.1 \(/usr/local/cuda-12\.4\)" \
    "... naming the toolkits there are"

# --add-lib and --cudnn, in the order given, after the toolkit's.
fx_cudnn /opt/cudnn/lib 9.1.0
fx_cmd_env env PATH=$P -- --json --add-lib /opt/a --add-lib /opt/b --cudnn /opt/cudnn/lib
is "$(j '.plan.ld_library_path.prepend | join(" ")')" "/opt/a /opt/b /opt/cudnn/lib" \
    "--add-lib twice and --cudnn: in that order"

# CUDA_HOME naming nothing: the finding's fix names the command.
fx_doctor_env PATH=$P CUDA_HOME=/opt/gone
like "$(fx_jq '.findings[] | select(.code == "ENV_PATH_MISSING") | .fix[]')" \
    "^cudawiz env( --toolkit '?/usr/local/cuda-[0-9.]*'?)? -o cuda-env\.sh" \
    "ENV_PATH_MISSING (CUDA_HOME) names cudawiz env"

# Usage errors.
fx_cmd_env env PATH=$P -- stray
is "$FX_RC" 2 "env with an argument: exit 2"
fx_cmd_env env PATH=$P -- --install-rc
is "$FX_RC" 2 "--install-rc without -o: exit 2"
like "$(cat "$FX.stderr")" "--install-rc needs -o FILE" "... saying why"
fx_cmd_env env PATH=$P -- --shell klingon
is "$FX_RC" 2 "--shell klingon: exit 2"
like "$(cat "$FX.stderr")" "not a format cudawiz writes" "... naming the formats"
out=$("$CUDAWIZ" doctor --shell sh 2>&1)
is "$?" 2 "doctor --shell: exit 2"
like "$out" "are options of 'env'" "... they are options of env"
fx_cmd_env env PATH=$P -- --shell conda
is "$FX_RC" 2 "--shell conda with no environment: exit 2"
like "$(cat "$FX.stderr")" "writes into a conda environment" "... saying which to name"

done_testing
