#!/bin/sh
# gen-tree.sh DIR [TOOLKITS] [CUDNN]: make a --root tree with TOOLKITS CUDA
# toolkits (default 20) and CUDNN cuDNN copies (default 50), with real
# shared libraries, for timing `cudawiz doctor` on a crowded machine.
set -eu
dir=$1
ntk=${2:-20}
ncudnn=${3:-50}
cc=${CC:-cc}

mkdir -p "$dir"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkso() {	# SONAME OUT
	[ -f "$work/$1" ] || printf 'int f(void){return 0;}\n' |
	    $cc -shared -fPIC -x c -o "$work/$1" -Wl,-soname,"$1" -
	mkdir -p "$(dirname "$2")"
	cp "$work/$1" "$2"
}

mkdir -p "$dir/proc/sys/kernel" "$dir/etc/ld.so.conf.d"
echo 6.1.0-13-amd64 > "$dir/proc/sys/kernel/osrelease"
echo 'include /etc/ld.so.conf.d/*.conf' > "$dir/etc/ld.so.conf"

i=0
while [ "$i" -lt "$ntk" ]; do
	major=$((11 + i % 3)); minor=$((i / 3))
	v=$major.$minor.$((100 + i))
	tk=$dir/usr/local/cuda-$major.$minor
	[ "$major" = 11 ] && so=libcudart.so.11.0 || so=libcudart.so.$major
	mkdir -p "$tk/bin" "$tk/include"
	printf '{"cuda":{"name":"CUDA SDK","version":"%s"}}\n' "$v" > "$tk/version.json"
	mkso "$so" "$tk/lib64/libcudart.so.$v"
	ln -sf "libcudart.so.$v" "$tk/lib64/$so"
	mkso libcuda.so.1 "$tk/lib64/stubs/libcuda.so"
	printf '#!/bin/sh\n' > "$tk/bin/nvcc"; chmod +x "$tk/bin/nvcc"
	echo "/usr/local/cuda-$major.$minor/lib64" > "$dir/etc/ld.so.conf.d/cuda-$i.conf"
	i=$((i + 1))
done

i=0
while [ "$i" -lt "$ncudnn" ]; do
	d=$dir/opt/cudnn-$i
	major=$((8 + i % 2))
	mkdir -p "$d/include"
	printf '#define CUDNN_MAJOR %d\n#define CUDNN_MINOR %d\n#define CUDNN_PATCHLEVEL 0\n' \
	    "$major" "$i" > "$d/include/cudnn_version.h"
	mkso "libcudnn.so.$major" "$d/lib/libcudnn.so.$major.$i.0"
	ln -sf "libcudnn.so.$major.$i.0" "$d/lib/libcudnn.so.$major"
	echo "/opt/cudnn-$i/lib" > "$dir/etc/ld.so.conf.d/cudnn-$i.conf"
	i=$((i + 1))
done
