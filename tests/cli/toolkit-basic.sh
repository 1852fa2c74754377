#!/bin/sh
# Toolkit probe: where the version comes from, the runtime directories,
# stubs and nvcc, aliases, and several toolkits side by side.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_toolkit.sh"

# --- one toolkit with version.json (runfile layout: lib64 -> targets/…/lib)
fx_new
fx_toolkit 12.4.1
fx_doctor
tk=/usr/local/cuda-12.4
is "$(fx_jq '.facts.toolkits | length')" 1 "version.json: one toolkit"
is "$(fx_tk_json .root)" "$tk" "root is the install directory"
is "$(fx_tk_json .layout)" install "layout is install"
is "$(fx_tk_json .version)" 12.4.1 "version from version.json"
is "$(fx_tk_json .sources.version)" "$tk/version.json" "version source names version.json"
is "$(fx_tk_json '.found_via | join(",")')" "/usr/local/cuda*" "found via /usr/local/cuda*"
is "$(fx_tk_json '.aliases | length')" 0 "no aliases without a link"
is "$(fx_tk_json '.cudart | length')" 1 "lib64 and targets/x86_64-linux/lib are one directory"
is "$(fx_tk_json '.cudart[0].dir')" "$tk/lib64" "the runtime directory is named lib64"
is "$(fx_tk_json '.cudart[0].soname')" libcudart.so.12 "soname read from the ELF file"
is "$(fx_tk_json '.cudart[0].file')" "$tk/targets/x86_64-linux/lib/libcudart.so.12.4.1" \
    "the real file behind the soname"
is "$(fx_tk_json .stubs_dir)" "$tk/lib64/stubs" "stubs directory"
is "$(fx_tk_json .nvcc)" "$tk/bin/nvcc" "nvcc"
is "$(fx_jq '[.facts.notes[] | select(.path | startswith("/usr/local"))] | length')" 0 \
    "a healthy toolkit gives no notes"

# --- /usr/local/cuda -> cuda-12.4: one toolkit with an alias
fx_link cuda-12.4 /usr/local/cuda
fx_doctor
is "$(fx_jq '.facts.toolkits | length')" 1 "/usr/local/cuda link: still one toolkit"
is "$(fx_tk_json '.aliases | join(",")')" /usr/local/cuda "/usr/local/cuda is an alias"
is "$(fx_tk_json .root)" "$tk" "the root is the real directory"

# A directory called cuda* that is no toolkit, and a plain file.
fx_file /usr/local/cuda-samples/README.md "samples"
fx_file /usr/local/cuda.tar.gz "not a directory"
fx_doctor
is "$(fx_jq '.facts.toolkits | length')" 1 "cuda-samples and cuda.tar.gz are not toolkits"

# --- version.txt (CUDA 11.0 and before wrote this)
fx_new
t=/usr/local/cuda-11.2
fx_file $t/version.txt "CUDA Version 11.2.152"
fx_cudart $t/lib64 11.2.152
fx_doctor
is "$(fx_tk_json .version)" 11.2.152 "version from version.txt"
is "$(fx_tk_json .sources.version)" "$t/version.txt" "version source names version.txt"
is "$(fx_tk_json '.cudart[0].soname')" libcudart.so.11.0 "CUDA 11 soname is libcudart.so.11.0"
is "$(fx_tk_json .nvcc)" null "no nvcc"
is "$(fx_tk_json .stubs_dir)" null "no stubs"

# version.json wins over version.txt.
fx_file $t/version.json '{"cuda": {"name": "CUDA SDK", "version": "11.2.2"}}'
fx_doctor
is "$(fx_tk_json .version)" 11.2.2 "version.json is read before version.txt"

# --- header only: CUDART_VERSION in cuda_runtime_api.h (/opt/cuda*)
fx_new
t=/opt/cuda
fx_file $t/include/cuda_runtime_api.h "#if !defined(__CUDA_RUNTIME_API_H__)
#define __CUDA_RUNTIME_API_H__
/* CUDART_VERSION 9999 in a comment does not count */
#define CUDART_VERSION  12020
#endif"
fx_so $t/lib64/libcudart.so.12 libcudart.so.12
fx_doctor
is "$(fx_tk_json .version)" 12.2 "version from CUDART_VERSION 12020"
is "$(fx_tk_json .sources.version)" "$t/include/cuda_runtime_api.h" "version source names the header"
is "$(fx_tk_json '.found_via | join(",")')" "/opt/cuda*" "found via /opt/cuda*"

# The header under targets/*/include counts too.
fx_new
t=/usr/local/cuda-13.0
fx_file $t/targets/sbsa-linux/include/cuda_runtime_api.h "#define CUDART_VERSION 13000"
fx_so $t/targets/sbsa-linux/lib/libcudart.so.13 libcudart.so.13
fx_doctor
is "$(fx_tk_json .version)" 13.0 "version from targets/sbsa-linux/include"
is "$(fx_tk_json '.cudart[0].dir')" "$t/targets/sbsa-linux/lib" "runtime under targets/sbsa-linux/lib"

# --- file names only
fx_new
t=/usr/local/cuda-10.1
fx_cudart $t/lib64 10.1.243
fx_doctor
is "$(fx_tk_json .version)" 10.1.243 "version from the libcudart file name"
is "$(fx_tk_json .sources.version)" "$t/lib64/libcudart.so.10.1.243" "version source names the file"
is "$(fx_tk_json '.cudart[0].soname')" libcudart.so.10.1 "CUDA 10.1 soname"

# A soname alone says only the major: no version, and a reason.
fx_new
fx_so /usr/local/cuda-12/lib64/libcudart.so.12 libcudart.so.12
fx_doctor
is "$(fx_tk_json .version)" null "libcudart.so.12 alone gives no version"
like "$(fx_tk_json .unknown.version)" "version.json" "the reason lists where it looked"
is "$(fx_tk_json '.cudart[0].soname')" libcudart.so.12 "the toolkit is still reported"

# --- a toolkit assembled from wheels (the layout of NVIDIA's CUDA 13
# containers): dist-info/ in the root, lib64 -> lib, targets/*/lib -> lib.
fx_new
t=/usr/local/cuda-13.0
fx_dir $t/dist-info/nvidia_cuda_runtime-13.0.96.dist-info
fx_dir $t/dist-info/nvidia_cublas-13.1.0.3.dist-info
fx_so $t/lib/libcudart.so.13 libcudart.so.13
fx_link lib $t/lib64
fx_link ../../lib $t/targets/x86_64-linux/lib
fx_so $t/lib/stubs/libcuda.so libcuda.so.1
fx_file $t/include/cuda_runtime_api.h "#define CUDART_VERSION 13000"
fx_doctor
is "$(fx_tk_json .version)" 13.0.96 "version from dist-info/nvidia_cuda_runtime-*"
is "$(fx_tk_json .sources.version)" "$t/dist-info/nvidia_cuda_runtime-13.0.96.dist-info" \
    "version source names the dist-info directory"
is "$(fx_tk_json '.cudart | length')" 1 "lib64, lib and targets/x86_64-linux/lib are one directory"
is "$(fx_tk_json '.cudart[0].file')" "$t/lib/libcudart.so.13" "real file"
is "$(fx_tk_json .stubs_dir)" "$t/lib64/stubs" "stubs through lib64"

# --- Debian's nvidia-cuda-toolkit: bin/ here, the header in /usr/include
fx_new
fx_file /usr/lib/nvidia-cuda-toolkit/bin/nvcc "#!/bin/sh"
chmod +x "$FX/usr/lib/nvidia-cuda-toolkit/bin/nvcc"
fx_file /usr/include/cuda_runtime_api.h "#define CUDART_VERSION 12000"
fx_doctor
is "$(fx_tk_json .root)" /usr/lib/nvidia-cuda-toolkit "Debian toolkit found"
is "$(fx_tk_json '.found_via | join(",")')" /usr/lib/nvidia-cuda-toolkit "found via its fixed place"
is "$(fx_tk_json .version)" 12.0 "version from /usr/include/cuda_runtime_api.h"

fx_new
fx_toolkit 12.4.1
fx_link /usr/local/cuda-12.4 /usr/lib/cuda
fx_doctor
is "$(fx_tk_json '.found_via | join(",")')" "/usr/local/cuda*,/usr/lib/cuda" "found via /usr/lib/cuda too"
is "$(fx_tk_json '.aliases | join(",")')" /usr/lib/cuda "/usr/lib/cuda is an alias"

# --- three toolkits side by side, /usr/local/cuda pointing at one
fx_new
fx_toolkit 11.8.0
fx_toolkit 12.4.1
fx_toolkit 13.0.1
fx_link /usr/local/cuda-13.0 /usr/local/cuda
fx_doctor
is "$(fx_jq '.facts.toolkits | length')" 3 "three toolkits"
is "$(fx_jq '[.facts.toolkits[].version] | sort | join(",")')" "11.8.0,12.4.1,13.0.1" \
    "each with its own version"
is "$(fx_jq '[.facts.toolkits[].cudart[0].soname] | sort | join(",")')" \
    "libcudart.so.11.0,libcudart.so.12,libcudart.so.13" "each with its own soname"
is "$(fx_jq '.facts.toolkits[] | select(.aliases | index("/usr/local/cuda")) | .version')" \
    13.0.1 "the alias belongs to the toolkit it points at"
is "$(fx_jq '[.facts.toolkits[].aliases[]] | length')" 1 "and to no other"

done_testing
