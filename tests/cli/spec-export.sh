#!/bin/sh
# spec export (issue 22, point 2): the flat items of contract 2, exactly,
# from a fixture machine; the same items as doctor --json's "spec"; -o
# FILE written whole (util/atomicfile) or not at all, with a clear error.
. "$TESTS_SRCDIR/cli/spec-common.sh"

spec_machine
fx_toolkit 12.4.1
fx_file /usr/local/cuda-13.0/include/cudnn_version.h "#define CUDNN_MAJOR 9
#define CUDNN_MINOR 13
#define CUDNN_PATCHLEVEL 0"
fx_so /usr/local/cuda-13.0/targets/x86_64-linux/lib/libcudnn.so.9.13.0 libcudnn.so.9
fx_link libcudnn.so.9.13.0 /usr/local/cuda-13.0/targets/x86_64-linux/lib/libcudnn.so.9
fx_venv_env /home/u/venvs/train 3.11
fx_torch "$FX_SITE" 2.3.1+cu121 12.1 libcudart.so.12
fx_venv_env /home/u/venvs/cpu 3.11
fx_torch "$FX_SITE" 2.2.0+cpu None
ENV="PATH=/usr/local/cuda/bin:/usr/bin CUDA_HOME=/usr/local/cuda
VIRTUAL_ENV=/home/u/venvs/train LD_LIBRARY_PATH=/opt/x:/usr/local/cuda/lib64
CUDA_VISIBLE_DEVICES=0 LD_PRELOAD=/opt/pre.so"
# shellcheck disable=SC2086
fx_cmd_env "spec export" $ENV
is "$FX_RC" 0 "spec export exits 0"
cp "$FX_OUT" "$FX.spec.json"
is "$(jq -r '[keys_unsorted[]] | join(" ")' "$FX_OUT")" "schema host items" \
    "a spec is schema, host, items"
is "$(jq -r .schema "$FX_OUT")" cudawiz/spec/1 "its schema"
is "$(jq -r .host.name "$FX_OUT")" gpu01 "the host is named"
is "$(jq -S -c ".items | $SPEC_NOVG" "$FX_OUT")" "$(jq -S -c . <<'JSON'
{
  "driver.version": "580.65.06",
  "driver.branch": "580",
  "driver.module": "580.65.06",
  "driver.max_cuda": "13.0",
  "gpu.count": "1",
  "gpu.models": "GH100[H100 SXM5 80GB] (9.0) x1",
  "toolkit.versions": "12.4.1 13.0.0",
  "toolkit.default": "13.0.0",
  "cudnn.versions": "9.13.0",
  "framework./home/u/venvs/train.torch": "2.3.1 cuda 12.1",
  "env.CUDA_HOME": "/usr/local/cuda",
  "env.LD_LIBRARY_PATH": "/opt/x:/usr/local/cuda/lib64",
  "env.CUDA_VISIBLE_DEVICES": "0",
  "env.LD_PRELOAD": "/opt/pre.so"
}
JSON
)" "the items are exactly the machine's"

# shellcheck disable=SC2086
fx_doctor_env $ENV
is "$(fx_jq '.spec | [keys_unsorted[]] | join(" ")')" "schema items" \
    "doctor's spec is schema and items"
is "$(jq -S -c ".spec.items | $SPEC_NOVG" "$FX_OUT")" \
    "$(jq -S -c ".items | $SPEC_NOVG" "$FX.spec.json")" \
    "spec export's items are doctor's spec.items"

# The default toolkit is the one nvcc on PATH gives, before CUDA_HOME.
fx_cmd_env "spec export" PATH=/usr/local/cuda-12.4/bin:/usr/bin CUDA_HOME=/usr/local/cuda
is "$(jq -r '.items["toolkit.default"]' "$FX_OUT")" 12.4.1 "the default toolkit follows nvcc on PATH"
is "$(jq -r ".items | $SPEC_NOVG"' | with_entries(select(.key | startswith("env."))) | keys | join(" ")' "$FX_OUT")" \
    env.CUDA_HOME "a variable that is not set is no item"

fx_cmd_env "spec export" VIRTUAL_ENV=/home/u/venvs/cpu
is "$(jq -r '.items | with_entries(select(.key | startswith("framework."))) | to_entries[] | "\(.key)=\(.value)"' "$FX_OUT")" \
    "framework./home/u/venvs/cpu.torch=2.2.0 cpu" "a CPU-only build says cpu"

# A tree with nothing in it: no item is made up.
fx_new
fx_cmd_env "spec export"
is "$(jq -c ".items | $SPEC_NOVG" "$FX_OUT")" "{}" "an empty tree has no items"

# -o FILE.
fx_new
fx_cuda13_machine
mkdir -p "$FX.o"
fx_dirs="$fx_dirs $FX.o"
fx_cmd_env "spec export" -- -o "$FX.o/spec.json"
is "$FX_RC" 0 "-o FILE exits 0"
is "$(wc -c < "$FX_OUT")" 0 "and prints nothing"
is "$(jq -r '.items["driver.branch"]' "$FX.o/spec.json")" 580 "the file is the spec"
is "$(ls -A "$FX.o" | tr '\n' ' ')" "spec.json " "no temporary file is left beside it"
is "$(stat -c %a "$FX.o/spec.json")" "$(printf '%o' $((0644 & ~$(umask))))" \
    "a new file is 0644 less the umask"
chmod 600 "$FX.o/spec.json"
fx_file /sys/module/nvidia/version 570.1.2
fx_cmd_env "spec export" -- -o "$FX.o/spec.json"
is "$(stat -c %a "$FX.o/spec.json")" 600 "a file rewritten keeps its mode"
mkdir "$FX.o/adir"
fx_cmd_env "spec export" -- -o "$FX.o/adir"
is "$FX_RC" 2 "-o a directory exits 2"
like "$(cat "$FX.stderr")" "$FX.o/adir.*directory" "naming it and why"
fx_cmd_env "spec export" -- -o "$FX.o/none/spec.json"
is "$FX_RC" 2 "-o into a missing directory exits 2"
like "$(cat "$FX.stderr")" "$FX.o/none/spec.json" "naming the file"
if [ "$(id -u)" != 0 ] || fx_drop_privileges; then
	chmod 755 "$FX.o"
	cp "$FX.o/spec.json" "$FX.before"
	fx_cmd_env "spec export" -- -o "$FX.o/spec.json"
	fx_keep_privileges
	is "$FX_RC" 2 "-o into a directory it cannot write exits 2"
	like "$(cat "$FX.stderr")" "$FX.o.*(denied|Permission)" "saying why"
	ok "and the file there is left as it was" cmp -s "$FX.before" "$FX.o/spec.json"
	rm -f "$FX.before"
else
	skip "-o into a directory it cannot write" "$FX_DROP_WHY"
	skip "saying why" "$FX_DROP_WHY"
	skip "and the file there is left as it was" "$FX_DROP_WHY"
fi

fx_cmd_env "spec show"
is "$FX_RC" 2 "spec has one subcommand: export"

done_testing
