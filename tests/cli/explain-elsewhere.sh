#!/bin/sh
# explain on messages pasted from another machine (a Colab log, a cluster
# job's): when no absolute path in a message is here, it is diagnosed from
# the message alone, says so (text and JSON "machine": "other"), gives the
# fix in that machine's terms (its site-packages, its CUDA directory), and
# reports nothing about this machine's loader or driver. The same message
# whose paths are here is about this machine.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/cli/explain-common.sh"

COLAB_SYM="ImportError: /usr/local/lib/python3.10/dist-packages/torch/lib/libtorch_cuda.so: undefined symbol: cudaGetDriverEntryPointByVersion, version libcudart.so.12"
CLUSTER_VER="OSError: /sw/cuda/11.8/lib64/libcublasLt.so.11: version \`libcublasLt.so.11' not found (required by /home/u/venv/lib/python3.9/site-packages/torch/lib/libtorch_cuda.so)"
COLAB_TF="2023-08-01 10:00:00.000000: W tensorflow/compiler/xla/stream_executor/platform/default/dso_loader.cc:64] Could not load dynamic library 'libcudnn.so.8'; dlerror: libcudnn.so.8: cannot open shared object file: No such file or directory; LD_LIBRARY_PATH: /usr/lib64-nvidia"
COLAB_TORCH="OSError: /usr/local/lib/python3.10/dist-packages/torch/lib/libtorch_cuda.so: libcudnn.so.8: cannot open shared object file: No such file or directory"

# A laptop without a GPU or driver: doctor would report that, explain must not.
fx_new
fx_file /etc/ld.so.conf ""

fx_explain -- "$COLAB_SYM"
is "$(jq -r '.machine' "$FX_OUT")" other "Colab symbol: the document says another machine"
is "$(jq -r '.recognised[0].machine' "$FX_OUT")" other "... and the message"
is "$(jq -r '.recognised[0].missing_path' "$FX_OUT")" /usr/local/lib/python3.10/dist-packages/torch/lib/libtorch_cuda.so \
    "... naming the path that is not here"
is "$(jq -r '[.findings[].code] | join(" ")' "$FX_OUT")" SONAME_VERSION_MISMATCH \
    "Colab symbol: one finding, none about this machine"
like "$(finding SONAME_VERSION_MISMATCH .detail)" "^On the machine the message comes from" "... about that machine"
like "$(evidence SONAME_VERSION_MISMATCH)" "not on this machine .*diagnosed from the message alone" "... said so"
unlike "$(evidence SONAME_VERSION_MISMATCH)" "^here " "... no resolution on this machine"
like "$(fixes SONAME_VERSION_MISMATCH)" "python3\\.10, /usr/local/lib/python3\\.10/dist-packages" "fix: in its Python's terms"
like "$(fixes SONAME_VERSION_MISMATCH)" "^pip install --upgrade nvidia-cuda-runtime-cu12$" "fix: a newer cudart wheel"
like "$(fixes SONAME_VERSION_MISMATCH)" "^export LD_LIBRARY_PATH=/usr/local/lib/python3\\.10/dist-packages/nvidia/cuda_runtime/lib\"" \
    "fix: its wheel directory first"

fx_explain_text -- "$COLAB_SYM"
like "$(cat "$FX_OUT")" "The paths in this message are not on this machine" "text: said per message"
like "$(cat "$FX_OUT")" "diagnosed from the messages alone" "text: said once for all"

fx_explain -- "$CLUSTER_VER"
is "$(jq -r '.machine' "$FX_OUT")" other "cluster: another machine"
like "$(finding SONAME_VERSION_MISMATCH .detail)" "the copy it loads there, /sw/cuda/11\\.8/lib64/libcublasLt\\.so\\.11, does not define it" \
    "cluster: its copy named"
like "$(fixes SONAME_VERSION_MISMATCH)" "/home/u/venv/lib/python3\\.9/site-packages" "cluster: fix in its venv's terms"

fx_explain -- "$COLAB_TORCH"
is "$(jq -r '.machine' "$FX_OUT")" other "Colab torch: another machine"
is "$(jq -r '[.findings[].code] | join(" ")' "$FX_OUT")" SONAME_NOT_FOUND "... only the missing cuDNN"
lacks_code LIBCUDA_NOT_FOUND "... nothing about this machine's driver"
like "$(fixes SONAME_NOT_FOUND)" "^pip install nvidia-cudnn-cu1[12]" "... fix: cuDNN 8 for that environment"
like "$(fixes SONAME_NOT_FOUND)" "^export LD_LIBRARY_PATH=/usr/local/lib/python3\\.10/dist-packages/nvidia/cudnn/lib\"" \
    "... and its directory in that Python"

# TensorFlow's LD_LIBRARY_PATH is the environment it ran in, not a file the
# message is about: a message naming no other path is about this machine.
fx_explain -- "$COLAB_TF"
is "$(jq -r '.machine' "$FX_OUT")" this "TF's LD_LIBRARY_PATH alone: this machine"

# A cluster path that names its CUDA directory and no wheel fits.
fx_explain -- "/sw/apps/myprog: error while loading shared libraries: libnvToolsExt.so.1: cannot open shared object file: No such file or directory"
is "$(jq -r '.machine' "$FX_OUT")" other "cluster program: another machine"
ok "cluster program: a fix" [ -n "$(fixes SONAME_NOT_FOUND)" ]

# The same message with its paths here: this machine, diagnosed here.
mkdir -p "$FX/usr/local/lib/python3.10/dist-packages/torch/lib"
fx_so /usr/local/lib/python3.10/dist-packages/torch/lib/libtorch_cuda.so libtorch_cuda.so
fx_explain -- "$COLAB_SYM"
is "$(jq -r '.machine' "$FX_OUT")" this "paths here: this machine"
is "$(jq -r '.recognised[0].machine' "$FX_OUT")" this "... per message too"
unlike "$(finding SONAME_VERSION_MISMATCH .detail)" "^On the machine the message comes from" "... diagnosed here"

# A message without any path: this machine, as before.
fx_explain -- "ImportError: libcudnn.so.8: cannot open shared object file: No such file or directory"
is "$(jq -r '.machine' "$FX_OUT")" this "no paths: this machine"

done_testing
