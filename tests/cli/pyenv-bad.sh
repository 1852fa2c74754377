#!/bin/sh
# Bad inputs to the Python probes: a damaged environments.txt, METADATA that
# is binary, empty or missing, dist-info directories with odd names, conda
# records that are malformed, not objects, directories or huge, symbolic
# link loops and dangling links, unreadable directories. Each is a clear
# note or metadata_error; none stops the probe or the others.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_env.sh"
. "$TESTS_SRCDIR/lib/fx_python.sh"

H=/home/u
# note PATH: the problems noted for PATH, one a line
note() {
	jq -r --arg p "$1" '.facts.notes[] | select(.path == $p) | .problem' \
	    "$FX_OUT" 2>/dev/null
}
pkg() {
	jq -r --arg p "$1" --arg n "$2" "[.facts.python_envs[] | select(.prefix == \$p) |
	    .packages[] | select(.name == \$n)] | $3" "$FX_OUT" 2>/dev/null
}

# --- environments.txt
fx_new
fx_conda_env /envs/good 3.10
fx_conda_env /envs/crlf 3.10
fx_dir /envs/notconda
fx_file /envs/afile "x"
long=$(head -c 5000 /dev/zero | tr '\0' a)
{
	printf '/envs/good\n'
	printf '/envs/crlf\r\n'
	printf '\r\n\n   \n# /envs/commented\n'
	printf '/envs/with\0nul\n'
	printf '/%s\n' "$long"
	printf 'relative/env\n'
	printf '\377\376garbage \001\002\n'
	printf '/envs/missing\n'
	printf '/envs/notconda\n'
	printf '/envs/afile\n'
	printf '/envs/loop\n'
	printf '/envs/good'
} > "$FX.envs"
fx_file $H/.conda/environments.txt < "$FX.envs"
fx_link loop /envs/loop
fx_doctor_env HOME=$H
fx_ran_ok
T=$H/.conda/environments.txt
is "$(fx_jq '[.facts.python_envs[].prefix] | join(" ")')" "/envs/good /envs/crlf" \
    "the good lines are read, once each, CRLF and a last line without newline too"
like "$(note $T)" 'line 7 holds a NUL byte' "a NUL byte is noted with its line"
like "$(note $T)" 'line 8 is longer than any path' "a huge line is noted"
like "$(note $T)" 'line 9 is not an absolute path: relative/env' "a relative path is noted"
like "$(note $T)" 'line 10 is not an absolute path' "garbage is noted"
like "$(note /envs/missing)" 'environments.txt, but it cannot be followed: No such file or directory' \
    "a missing environment is noted"
like "$(note /envs/notconda)" 'no conda environment \(no conda-meta' \
    "a directory without conda-meta is noted"
like "$(note /envs/afile)" 'not a directory' "a file is noted"
like "$(note /envs/loop)" 'Too many levels of symbolic links' "a symbolic link loop is noted"
is "$(fx_jq '.facts.notes | map(select(.path | startswith("/envs/commented"))) | length')" 0 \
    "a comment is not read as a path"

# binary, over the cap, a directory
head -c 5000000 /dev/urandom > "$FX$T"
fx_doctor_env HOME=$H
fx_ran_ok "a 5 MB binary environments.txt does not stop doctor"
like "$(note $T)" 'cannot read conda.s list of environments: .*(large|big)' \
    "... it is noted as too large"
rm -f "$FX$T"
head -c 200000 /dev/urandom > "$FX$T"
fx_doctor_env HOME=$H
fx_ran_ok "a 200 kB random environments.txt does not stop doctor"
is "$(fx_jq '.facts.python_envs | length')" 0 "... and names no environment"
rm -f "$FX$T"
mkdir "$FX$T"
fx_doctor_env HOME=$H
like "$(note $T)" 'cannot read' "a directory named environments.txt is noted"
rmdir "$FX$T"
i=0
while [ $i -lt 17000 ]; do echo "# $i"; i=$((i + 1)); done | fx_file $T
fx_doctor_env HOME=$H
like "$(note $T)" 'more than 16384 lines' "the number of lines read is capped, with a note"

# --- METADATA and dist-info names
fx_new
V=/v
S=$V/lib/python3.11/site-packages
fx_venv $V 3.11
fx_dist_info $S torch 2.1.0
head -c 3000 /dev/urandom | tr -d '\n' > "$FX$S/torch-2.1.0.dist-info/METADATA"
printf 'Name: torch\0\nVersion: 2.1.0\n' >> "$FX$S/torch-2.1.0.dist-info/METADATA"
fx_dist_info $S jaxlib 0.4.20
printf 'Metadata-Version: 2.1\nName: jaxlib\nSummary: no version here\n\nVersion: 9.9\n' \
    > "$FX$S/jaxlib-0.4.20.dist-info/METADATA"
mkdir -p "$FX$S/cupy_cuda12x-13.0.0.dist-info"
mkdir -p "$FX$S/tensorflow.dist-info"
mkdir -p "$FX$S/my package-1.0 beta.dist-info"
mkdir -p "$FX$S/café-1.0.dist-info"
mkdir -p "$FX$S/$(printf 'bad\377name')-1.0.dist-info"
mkdir -p "$FX$S/.dist-info"
mkdir -p "$FX$S/$(printf 'nvidia-b\377d')-1.0.dist-info"
mkdir -p "$FX$S/-1.0.dist-info"
fx_dist_info $S nvidia-nccl-cu12 2.18.1
head -c 2000000 /dev/zero | tr '\0' 'x' >> "$FX$S/nvidia_nccl_cu12-2.18.1.dist-info/METADATA"
fx_dist_info $S onnxruntime-gpu 1.16.0
{ printf 'Metadata-Version: 2.1\nName: onnxruntime-gpu\nVersion: 1.16.0\n'; head -c 2000000 /dev/zero | tr '\0' 'y'; } \
    > "$FX$S/onnxruntime_gpu-1.16.0.dist-info/METADATA"
fx_doctor_env PATH=$V/bin
fx_ran_ok
like "$(pkg $V torch '.[0].metadata_error')" "METADATA: binary data" "binary METADATA is a metadata_error"
is "$(pkg $V torch '.[0].version')" 2.1.0 "... and the version from the name stays"
like "$(pkg $V jaxlib '.[0].metadata_error')" "METADATA: no Version" \
    "METADATA without Version (before the blank line) is a metadata_error"
is "$(pkg $V jaxlib '.[0].version')" 0.4.20 "... and the version from the name stays"
like "$(pkg $V cupy_cuda12x '.[0].metadata_error')" "METADATA: No such file" \
    "a dist-info without METADATA: metadata_error names the file"
is "$(pkg $V tensorflow '.[0] | "\(.name) \(.version)"')" "tensorflow null" \
    "tensorflow.dist-info: no version, but listed"
like "$(note $S)" 'tensorflow.dist-info: no version in the name' "... and noted"
is "$(fx_py_env $V .package_count)" 11 \
    "odd names are counted: spaces, unicode, bad bytes, no name; '.dist-info' is not a package"
is "$(fx_py_env $V '[.packages[] | select(.name | startswith("nvidia-b")) | .name] | join(",")')" \
    "$(printf 'nvidia-b\357\277\275d')" "bytes that are not UTF-8 are replaced in the JSON"
is "$(pkg $V nvidia-nccl-cu12 '.[0] | "\(.version) \(.metadata_error)"')" "2.18.1 null" \
    "a 2 MB METADATA: the header is read, the description is not"
is "$(pkg $V onnxruntime-gpu '.[0] | "\(.version) \(.metadata_error)"')" "1.16.0 null" \
    "a header longer than the cap: what was read counts"

# --- conda records
fx_new
C=/c
fx_conda_env $C 3.10
M=$C/conda-meta
fx_file $M/cudnn-8.9.2-h0_0.json '{"name": "cudnn", "version": "8.9.2", "build": "h0_1", "channel": '
fx_file $M/cudatoolkit-11.8.0-h0_0.json '[1, 2, 3]'
fx_file $M/nccl-2.18.3-h0_0.json ''
fx_file $M/cuda-cudart-12.1.105-0.json '{"build": "0", "name": "cuda-cudart"} trailing'
fx_file $M/tensorrt-8.6.1-h0_0.json '{"build" "h0_0"}'
printf '{"build": "h0_0", "channel": "conda-f\0orge", "name": "cuda-nvcc"}' |
    fx_file $M/cuda-nvcc-12.1.105-h0_0.json
mkdir -p "$FX$M/libcublas-12.1.3.1-0.json"
fx_file $M/torch.json '{}'
fx_file $M/history "==> 2024 <=="
fx_file $M/README.md "no"
fx_file $M/cuda-version-12.1-h0_0.json '{"build":"h0_0","channel":"conda-forge"}'
# Bigger than the cap (64 MiB) without build and channel: a sparse file.
printf '{"files": [' > "$FX$M/pytorch-2.1.0-cuda_0.json"
truncate -s 70M "$FX$M/pytorch-2.1.0-cuda_0.json"
# Huge, but with build and channel first.
printf '{"build": "py_0", "channel": "pytorch", "files": [' > "$FX$M/pytorch-cuda-12.1-py_0.json"
truncate -s 70M "$FX$M/pytorch-cuda-12.1-py_0.json"
fx_doctor_env CONDA_PREFIX=$C
fx_ran_ok
like "$(pkg $C cudnn '.[0].metadata_error')" 'cudnn-8.9.2-h0_0.json: malformed conda record \(the file ends inside the object' \
    "a truncated record"
is "$(pkg $C cudnn '.[0] | "\(.version) \(.build) \(.channel)"')" "8.9.2 h0_1 null" \
    "... what could be read counts, the file name says the rest"
like "$(pkg $C cudatoolkit '.[0].metadata_error')" 'not a JSON object at byte 0' "an array"
is "$(pkg $C cudatoolkit '.[0] | "\(.version) \(.build)"')" "11.8.0 h0_0" "... name, version and build from the file name"
like "$(pkg $C nccl '.[0].metadata_error')" 'empty file' "an empty record"
like "$(pkg $C cuda-cudart '.[0].metadata_error')" 'data after the object' "trailing data"
like "$(pkg $C tensorrt '.[0].metadata_error')" "':' was expected" "a missing colon"
is "$(pkg $C cuda-nvcc '.[0].channel')" "conda-f?orge" "a raw NUL byte in a string is replaced"
like "$(pkg $C libcublas '.[0].metadata_error')" 'libcublas-12.1.3.1-0.json: ' \
    "a directory named like a record is a metadata_error"
like "$(note $M)" 'torch.json: not NAME-VERSION-BUILD.json' "a record name without version is noted"
is "$(pkg $C torch '.[0].version')" null "... and listed without a version"
like "$(pkg $C pytorch '.[0].metadata_error')" 'larger than 64 MiB' \
    "a record over the cap without build and channel in the part read"
is "$(pkg $C pytorch-cuda '.[0] | "\(.channel) \(.metadata_error)"')" "pytorch null" \
    "a huge record with build and channel first is read fast"
is "$(pkg $C cuda-version '.[0] | "\(.version) \(.build) \(.channel) \(.metadata_error)"')" \
    "12.1 h0_0 conda-forge null" "a good record among the bad ones"
is "$(fx_py_env $C .package_count)" 12 "history and other files are not packages"

# --- loops, dangling links, missing variables' targets
fx_new
fx_conda_env /real/env 3.10
fx_link self $H/.virtualenvs/self
fx_link /nowhere $H/.virtualenvs/dangling
fx_link b /loop/a
fx_link a /loop/b
fx_link ../../../real/env $H/.virtualenvs/linked
fx_conda_env /opt/conda 3.11
fx_link site-packages /opt/conda/lib/python3.11/site-packages.tmp
rm -rf "$FX/opt/conda/lib/python3.11/site-packages"
fx_link site-packages "/opt/conda/lib/python3.11/site-packages"
fx_doctor_env HOME=$H CONDA_PREFIX=/loop/a VIRTUAL_ENV=/gone WORKON_HOME=relative \
    PYENV_ROOT=/nopyenv MAMBA_ROOT_PREFIX=/nomamba CONDA_ENVS_PATH=::/loop/b
fx_ran_ok
like "$(note /loop/a)" 'CONDA_PREFIX, but it cannot be followed: Too many levels' \
    "CONDA_PREFIX in a loop is noted"
like "$(note /gone)" 'VIRTUAL_ENV, but it cannot be followed: No such file' \
    "a VIRTUAL_ENV that does not exist is noted"
like "$(note $H/.virtualenvs/self)" 'Too many levels of symbolic links' "a link to itself"
like "$(note $H/.virtualenvs/dangling)" 'dangling symbolic link' "a dangling link"
like "$(note WORKON_HOME)" 'not an absolute path' "a relative WORKON_HOME"
like "$(note /nopyenv)" 'PYENV_ROOT' "a missing PYENV_ROOT"
like "$(note /nomamba)" 'MAMBA_ROOT_PREFIX names no directory' "a missing MAMBA_ROOT_PREFIX"
like "$(note /loop/b)" 'CONDA_ENVS_PATH.*Too many levels' "a CONDA_ENVS_PATH loop"
is "$(fx_py_env /real/env '"\(.kind) \(.found_via | join(","))"')" "conda virtualenvs" \
    "a link in ~/.virtualenvs to a conda env: the env, once"
is "$(fx_py_env /opt/conda '"\(.python_version) \(.site_packages | length) \(.package_count)"')" \
    "3.11 0 1" "a site-packages in a loop is no site; the env stays"

# --- unreadable directories (as nobody)
fx_new
fx_conda_env /opt/conda 3.11
fx_conda_pkg /opt/conda cudnn 8.9.2 h0_0 conda-forge
fx_venv $H/.virtualenvs/a 3.11
fx_dist_info $H/.virtualenvs/a/lib/python3.11/site-packages torch 2.1.0
fx_venv /srv/b 3.11
fx_dist_info /srv/b/lib/python3.11/site-packages torch 2.1.0
fx_venv /srv/hidden/c 3.11
chmod -R a+rX "$FX"
chmod 000 "$FX$H/.virtualenvs/a/lib/python3.11/site-packages"
chmod 000 "$FX/srv/b/lib/python3.11/site-packages/torch-2.1.0.dist-info/METADATA"
chmod 000 "$FX/opt/conda/conda-meta/cudnn-8.9.2-h0_0.json"
chmod 000 "$FX/srv/hidden"
fx_dir /locked/env
chmod 000 "$FX/locked"
if fx_drop_privileges; then
	fx_doctor_env HOME=$H WORKON_HOME=/srv PATH=/usr/bin CONDA_ENVS_PATH=/locked
	fx_ran_ok "doctor runs as nobody"
	like "$(note $H/.virtualenvs/a/lib/python3.11/site-packages)" \
	    'cannot list the packages: Permission denied' "an unreadable site-packages is noted"
	is "$(fx_py_env $H/.virtualenvs/a .package_count)" 0 "... and has no packages"
	like "$(pkg /srv/b torch '.[0].metadata_error')" 'METADATA: Permission denied' \
	    "an unreadable METADATA is a metadata_error"
	like "$(pkg /opt/conda cudnn '.[0].metadata_error')" 'cudnn-8.9.2-h0_0.json: Permission denied' \
	    "an unreadable conda record is a metadata_error"
	like "$(note /srv/hidden)" 'WORKON_HOME, but it cannot be looked into: Permission denied' \
	    "a candidate that cannot be looked into is noted"
	like "$(note /locked)" 'cannot list this directory of environments \(CONDA_ENVS_PATH\): Permission denied' \
	    "an unreadable directory of environments is noted"
	is "$(fx_jq '[.facts.python_envs[].prefix] | join(" ")')" "/opt/conda $H/.virtualenvs/a /srv/b" \
	    "the other environments are all found"
	fx_keep_privileges
else
	for d in 1 2 3 4 5 6 7 8; do skip "unreadable directories" "$FX_DROP_WHY"; done
fi

done_testing
