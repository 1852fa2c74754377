#!/bin/sh
# gen-pyenv-libs.sh DIR: build the shared libraries bench/gen-pyenvs.py
# copies into its PyTorch environments (pass DIR as LIBDIR): stand-ins for
# libcudart.so.11.0, libcublas.so.11 and libcudnn.so.8, and a
# libtorch_cuda.so that needs them through a RUNPATH into the nvidia-*
# wheels, as the real one does, so the loader model has real ELF to read.
set -eu
libs=$1
cc=${CC:-cc}

mkdir -p "$libs"
for so in libcudart.so.11.0 libcublas.so.11 libcudnn.so.8; do
	echo 'int f(void){return 0;}' | $cc -shared -fPIC -x c -o "$libs/$so" -Wl,-soname,"$so" -
done
# -x none after the source: the libraries that follow are inputs to link,
# not C to compile.
echo 'int g(void){return 0;}' | $cc -shared -fPIC -o "$libs/libtorch_cuda.so" \
    -Wl,-soname,libtorch_cuda.so -Wl,--no-as-needed -Wl,--enable-new-dtags \
    -Wl,-rpath,'$ORIGIN/../../nvidia/cuda_runtime/lib:$ORIGIN/../../nvidia/cublas/lib:$ORIGIN/../../nvidia/cudnn/lib' \
    -x c - -x none "$libs/libcudart.so.11.0" "$libs/libcublas.so.11" "$libs/libcudnn.so.8"
