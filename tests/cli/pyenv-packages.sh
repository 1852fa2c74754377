#!/bin/sh
# Listing packages: dist-info and egg-info names, METADATA's Name, Version,
# Requires-Dist and Provides-Extra for the packages cudawiz cares about,
# conda-meta records (name, version, build, channel), the conda+dist-info
# merge, and package_count on a 300-package environment.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_env.sh"
. "$TESTS_SRCDIR/lib/fx_python.sh"

# pkg PREFIX NAME FILTER: jq FILTER on the listed package NAME of env PREFIX.
pkg() {
	jq -r --arg p "$1" --arg n "$2" "[.facts.python_envs[] | select(.prefix == \$p) |
	    .packages[] | select(.name == \$n)] | $3" "$FX_OUT" 2>/dev/null
}

fx_new
# --- a pip venv with torch and NVIDIA's wheels
V=/w/.venv
S=$V/lib/python3.10/site-packages
fx_venv $V 3.10
fx_dist_info $S torch 2.1.0 \
    'Requires-Dist: filelock' \
    'Requires-Dist: nvidia-cudnn-cu12 (==8.9.2.26) ; platform_system == "Linux" and platform_machine == "x86_64"' \
    'requires-dist: nvidia_cublas_cu12==12.1.3.1; platform_system == "Linux"' \
    'Requires-Dist: triton ==2.1.0' \
    'Provides-Extra: opt-einsum' \
    'Requires-Dist: opt-einsum >=3.3 ; extra == "opt-einsum"'
fx_dist_info $S nvidia-cudnn-cu12 8.9.2.26 'Requires-Dist: nvidia-cublas-cu12'
fx_dist_info $S tensorflow 2.15.0 - <<'EOF'
Summary: TensorFlow is an open source machine learning framework for everyone.
 a continuation line: Version: 9.9.9
Provides-Extra: and-cuda
Requires-Dist: nvidia-cublas-cu12 ==12.2.5.6 ; extra == "and-cuda"
Requires-Dist: tensorboard <2.16,>=2.15
Requires-Dist: tensorflow-io-gcs-filesystem >=0.23.1
Requires-Dist: jaxlib>=0.4 ; extra == "jax"
Requires-Dist: cupy-cuda12x
EOF
# Version in METADATA is authoritative over the directory name.
fx_dist_info $S jax 0.4.20
mv "$FX$S/jax-0.4.20.dist-info" "$FX$S/jax-0.4.0.dist-info"
fx_dist_info $S requests 2.31.0
fx_dist_info $S numpy 1.26.0
mkdir -p "$FX$S/cupy_cuda11x-12.0.0-py3.10.egg-info"
printf 'Metadata-Version: 1.1\nName: cupy-cuda11x\nVersion: 12.0.0\n' \
    > "$FX$S/cupy_cuda11x-12.0.0-py3.10.egg-info/PKG-INFO"
printf 'Metadata-Version: 1.0\nName: pycuda\nVersion: 2022.2\n' |
    fx_file $S/pycuda-2022.2-py3.10.egg-info
fx_file $S/six-1.16.0.egg-info "Name: six"
fx_dir $S/torch
fx_file $S/README.txt "not a package"

fx_doctor_env PATH=$V/bin
fx_ran_ok
is "$(fx_py_env $V .package_count)" 9 "every dist-info and egg-info is counted"
is "$(fx_py_env $V '[.packages[].name] | join(" ")')" \
    "cupy-cuda11x jax nvidia-cudnn-cu12 pycuda tensorflow torch" \
    "only the packages cudawiz cares about are listed, sorted by name"
is "$(pkg $V torch '.[0] | "\(.version) \(.source) \(.site) \(.build) \(.channel) \(.metadata_error)"')" \
    "2.1.0 dist-info $S null null null" "torch from its dist-info"
is "$(pkg $V torch '.[0].path')" "$S/torch-2.1.0.dist-info" "its path is the dist-info"
is "$(pkg $V torch '.[0].requires | join("|")')" \
    'nvidia-cudnn-cu12 (==8.9.2.26) ; platform_system == "Linux" and platform_machine == "x86_64"|nvidia_cublas_cu12==12.1.3.1; platform_system == "Linux"' \
    "Requires-Dist on nvidia-* kept as written, any key case; others left out"
is "$(pkg $V torch '.[0].extras | join(",")')" opt-einsum "Provides-Extra"
is "$(pkg $V tensorflow '.[0].extras | join(",")')" and-cuda "tensorflow offers [and-cuda]"
is "$(pkg $V tensorflow '.[0].requires | join("|")')" \
    'nvidia-cublas-cu12 ==12.2.5.6 ; extra == "and-cuda"|tensorflow-io-gcs-filesystem >=0.23.1|jaxlib>=0.4 ; extra == "jax"|cupy-cuda12x' \
    "nvidia-*, tensorflow*, jax* and cupy* requirements are kept"
is "$(pkg $V tensorflow '.[0].version')" 2.15.0 "a continuation line is not a header"
is "$(pkg $V jax '.[0].version')" 0.4.20 "Version in METADATA wins over the directory name"
is "$(pkg $V nvidia-cudnn-cu12 '.[0].requires | join(",")')" nvidia-cublas-cu12 \
    "Name as METADATA spells it"
is "$(pkg $V cupy-cuda11x '.[0] | "\(.version) \(.source) \(.path)"')" \
    "12.0.0 egg-info $S/cupy_cuda11x-12.0.0-py3.10.egg-info" "an egg-info directory"
is "$(pkg $V pycuda '.[0] | "\(.version) \(.source) \(.metadata_error)"')" \
    "2022.2 egg-info null" "an egg-info file is its own PKG-INFO"

# --- conda: records, builds, channels, and the merge with dist-info
fx_new
C=/opt/conda/envs/tf
CS=$C/lib/python3.10/site-packages
fx_conda_base /opt/conda 3.11
fx_conda_env $C 3.10
fx_conda_pkg $C cudatoolkit 11.2.2 hbe64b41_10 conda-forge
fx_conda_pkg $C cudnn 8.1.0.77 h90431f1_0 conda-forge
fx_conda_pkg $C tensorflow 2.10.0 gpu_py310h0e9d6b3_0 pkgs/main
fx_dist_info $CS tensorflow 2.10.0 'Requires-Dist: tensorflow-estimator<2.11,>=2.10.0'
fx_conda_pkg $C numpy 1.24.0 py310h0_0 conda-forge
fx_dist_info $CS numpy 1.24.0
fx_conda_pkg $C zlib 1.2.13 h166bdaf_4 conda-forge
fx_conda_pkg $C cuda-cudart 11.8.89 0 nvidia/label/cuda-11.8.0
fx_conda_pkg $C libcublas 11.11.3.6 0 ""
fx_conda_pkg $C cupy 12.0.0 py310h0_0 conda-forge
fx_dist_info $CS cupy 13.0.0
fx_conda_pkg $C nccl 2.18.3.1 h0_0 conda-forge
printf '{\n  "build": "py3.10_cuda11.8_cudnn8.7.0_0",\n  "schannel": "pytorch",\n  "name": "pytorch",\n  "version": "2.1.0"\n}\n' |
    fx_file $C/conda-meta/pytorch-2.1.0-py3.10_cuda11.8_cudnn8.7.0_0.json
printf '{"name":"pytorch-cuda","version":"11.8","build":"h7e8668a_5","url":"https://conda.anaconda.org/pytorch/noarch/pytorch-cuda-11.8-h7e8668a_5.tar.bz2"}' |
    fx_file $C/conda-meta/pytorch-cuda-11.8-h7e8668a_5.json
printf '{"build":"0","channel":"https://user:secret@conda.anaconda.org/t/tk-123abc/private/linux-64/","name":"cuda-nvcc","version":"11.8.89"}' |
    fx_file $C/conda-meta/cuda-nvcc-11.8.89-0.json
printf '{"build":"0","channel":"file:///srv/channel/linux-64","name":"cuda-nvrtc","version":"11.8.89"}' |
    fx_file $C/conda-meta/cuda-nvrtc-11.8.89-0.json
printf '{"build": "h0_0", "channel": "pkgs/main/linux-64", "name": "tensorrt", "version": "8.6.1", "note": "\\u00e9\\"\\ud83d\\ude00"}' |
    fx_file $C/conda-meta/tensorrt-8.6.1-h0_0.json
fx_file $C/conda-meta/.hidden.json "{}"

fx_doctor_env HOME=/root CONDA_PREFIX=$C PATH=$C/bin
fx_ran_ok
is "$(fx_py_env $C .package_count)" 16 \
    "a conda record and the dist-info of one install count once (15 records, 3 dist-infos, 2 merged)"
is "$(pkg $C cudatoolkit '.[0] | "\(.version) \(.build) \(.channel) \(.source) \(.site)"')" \
    "11.2.2 hbe64b41_10 conda-forge conda null" "cudatoolkit: version, build, conda-forge"
is "$(pkg $C cudatoolkit '.[0].path')" "$C/conda-meta/cudatoolkit-11.2.2-hbe64b41_10.json" \
    "its path is the record"
is "$(pkg $C cudnn '.[0] | "\(.version) \(.build) \(.channel)"')" \
    "8.1.0.77 h90431f1_0 conda-forge" "cudnn"
is "$(pkg $C tensorflow 'length')" 1 "tensorflow in conda-meta and as a dist-info: one package"
is "$(pkg $C tensorflow '.[0] | "\(.version) \(.source) \(.build) \(.channel) \(.site)"')" \
    "2.10.0 conda gpu_py310h0e9d6b3_0 pkgs/main $CS" "... source conda, with the dist-info's site"
is "$(pkg $C tensorflow '.[0].requires | join(",")')" "tensorflow-estimator<2.11,>=2.10.0" \
    "... and the dist-info's requirements"
is "$(pkg $C tensorflow '.[0].path')" "$C/conda-meta/tensorflow-2.10.0-gpu_py310h0e9d6b3_0.json" \
    "... and the record's path"
is "$(pkg $C cupy 'map("\(.source) \(.version)") | join(",")')" "dist-info 13.0.0,conda 12.0.0" \
    "versions that disagree (pip replaced conda's copy): both kept"
is "$(pkg $C cuda-cudart '.[0] | "\(.version) \(.build) \(.channel)"')" \
    "11.8.89 0 nvidia/label/cuda-11.8.0" "a name with '-', a label channel"
is "$(pkg $C libcublas '.[0] | "\(.version) \(.channel) \(.metadata_error)"')" \
    "11.11.3.6 null null" "a record without a channel"
is "$(pkg $C pytorch '.[0] | "\(.version) \(.build) \(.channel)"')" \
    "2.1.0 py3.10_cuda11.8_cudnn8.7.0_0 pytorch" "the schannel key"
is "$(pkg $C pytorch-cuda '.[0] | "\(.version) \(.build) \(.channel)"')" \
    "11.8 h7e8668a_5 pytorch" "the channel from the package URL"
is "$(pkg $C cuda-nvcc '.[0].channel')" private "credentials and tokens are dropped from a channel"
unlike "$(cat "$FX_OUT")" 'secret|tk-123abc' "... and appear nowhere in the report"
is "$(pkg $C cuda-nvrtc '.[0].channel')" /srv/channel "a local channel is its path"
is "$(pkg $C tensorrt '.[0] | "\(.channel) \(.metadata_error)"')" "pkgs/main null" \
    "pkgs/main/linux-64; escapes in other values are fine"
is "$(pkg $C nccl '.[0].build')" h0_0 "nccl is listed"
is "$(pkg $C zlib 'length')" 0 "zlib is counted, not listed"
is "$(fx_jq "[.facts.python_envs[] | select(.prefix == \"$C\") | .packages[] | select(.source == \"conda\") | .site] | map(select(. != null)) | length")" \
    1 "only the merged conda package has a site"

# --- a sorted record with a big file list: build and channel come first
fx_new
B=/opt/conda
fx_conda_base $B 3.11
{
	printf '{\n  "build": "py3.11_cuda12.1_cudnn8.9.2_0",\n  "build_number": 0,\n  "channel": "https://conda.anaconda.org/pytorch/linux-64",\n  "files": [\n'
	i=0
	while [ $i -lt 20000 ]; do
		printf '    "lib/python3.11/site-packages/torch/include/a/long/header/path/number_%d.h",\n' $i
		i=$((i + 1))
	done
	printf '    "last"\n  ],\n  "name": "pytorch",\n  "version": "2.1.2"\n}\n'
} | fx_file $B/conda-meta/pytorch-2.1.2-py3.11_cuda12.1_cudnn8.9.2_0.json
fx_doctor_env HOME=/root
is "$(pkg $B pytorch '.[0] | "\(.version) \(.build) \(.channel) \(.metadata_error)"')" \
    "2.1.2 py3.11_cuda12.1_cudnn8.9.2_0 pytorch null" \
    "a 1.5 MB record: name and version from the file name, build and channel read"

# --- 300 packages
fx_new
E=/opt/conda/envs/big
ES=$E/lib/python3.11/site-packages
fx_conda_base /opt/conda 3.11
fx_conda_env $E 3.11
i=0
while [ $i -lt 300 ]; do
	mkdir "$FX$ES/pkg_$i-1.$i.0.dist-info"
	: > "$FX$E/conda-meta/pkg-$i-1.$i.0-py_0.json"
	i=$((i + 1))
done
i=0
while [ $i -lt 100 ]; do
	mkdir "$FX$ES/nvidia_fake$i-12.$i.dist-info"
	i=$((i + 1))
done
fx_doctor_env HOME=/root PATH=/usr/bin
is "$(fx_py_env $E .package_count)" 401 \
    "300 conda packages merged with their dist-infos, 100 pip-only, python: 401"
is "$(fx_py_env $E '[.packages[] | select(.name | startswith("nvidia"))] | length')" 100 \
    "the 100 nvidia-* are listed"
is "$(fx_py_env $E '[.packages[] | select(.metadata_error != null)] | length')" 100 \
    "... each with its missing METADATA as metadata_error"
is "$(fx_py_env /opt/conda .package_count)" 1 "the base has its python"

done_testing
