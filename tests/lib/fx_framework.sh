# Fixture helpers for the framework tests: framework installs built of
# real ELF files. Source after fixture.sh (and fx_python.sh where it is
# wanted: these helpers stand alone).
#
#   fx_lib PATH SONAME [-r RUNPATH] [-R RPATH] [NEED...]
#                         a real shared library at PATH with SONAME and a
#                         DT_NEEDED entry for each NEED (a soname); -r sets
#                         DT_RUNPATH, -R DT_RPATH (written as given:
#                         '$ORIGIN/../lib')
#   fx_cuda_lib PATH SONAME GENCODES [NEED...]
#                         the same built by nvcc from a one-kernel .cu with
#                         each -gencode of GENCODES ("75:sm 90:ptx": SASS
#                         for sm_75, PTX for compute_90); fails when there
#                         is no nvcc ($NVCC, PATH, /usr/local/cuda/bin)
#   fx_fatbin_lib PATH SONAME SPEC [fx_lib ARG...]
#                         fx_lib with a synthetic .nv_fatbin section added by
#                         objcopy (SPEC as tests/tools/fatbin-list --blob
#                         takes it: "sm_90,compute_90"); fails without
#                         fatbin-list or objcopy
#   fx_exe PATH [RPATH]   a real ELF executable (a Python interpreter), with
#                         DT_RPATH RPATH when given (conda's $ORIGIN/../lib)
#   fx_dist SITE NAME VERSION [REQUIRES...]
#                         NAME-VERSION.dist-info with METADATA in SITE
#   fx_conda_meta PREFIX NAME VERSION BUILD [CHANNEL]
#                         conda-meta/NAME-VERSION-BUILD.json
#   fx_condaenv PREFIX [PYVER] [norpath]
#                         a conda env: conda-meta/, bin/pythonPYVER (an ELF
#                         with DT_RPATH $ORIGIN/../lib unless norpath) and
#                         its site-packages; FX_SITE names that
#   fx_venv_env PREFIX [PYVER]
#                         a venv (pyvenv.cfg, bin/python a link to an ELF
#                         interpreter under /usr/bin); FX_SITE as above
#   fx_nvidia_wheel SITE PACKAGE VERSION
#                         an NVIDIA wheel as data/matrix.json lays it out:
#                         dist-info and a library for each soname it provides
#   fx_torch SITE VERSION CUDA [-r RUNPATH] [NEED...]
#                         torch: dist-info, torch/version.py (cuda = 'CUDA',
#                         or None when CUDA is None), and for a CUDA build
#                         torch/lib/libtorch_cuda.so needing each NEED
#   fx_tensorflow SITE PACKAGE VERSION [CUDA CUDNN] [-r RUNPATH]
#                         TensorFlow: build_info.py (is_cuda_build False
#                         without CUDA) and libtensorflow_framework.so.2
#   fx_cupy SITE PACKAGE VERSION [WHEEL_CUDA]
#                         CuPy and its cupy_backends runtime module;
#                         WHEEL_CUDA goes into cupy/.data/_wheel.json
#   fx_spacy SITE VERSION      spaCy (pure Python)
#   fx_jax SITE JAXLIB_VERSION [PLUGIN_PACKAGE] [NEED...]
#                         jaxlib, and a jax-cudaNN-plugin/-pjrt with
#                         jax_plugins/xla_cudaNN/xla_cuda_plugin.so
#   fx_onnxruntime SITE PACKAGE VERSION [NEED...]
#                         onnxruntime; -gpu packages get
#                         capi/libonnxruntime_providers_cuda.so
#   fx_paddle SITE PACKAGE VERSION [CUDA CUDNN]
#                         paddle/version/__init__.py, and for a GPU build
#                         paddle/base/libpaddle.so
#   fx_mxnet SITE PACKAGE VERSION [NEED...]    mxnet/libmxnet.so for mxnet-cuXXX
#   fx_numba SITE PACKAGE VERSION
#   fx_tf_conda PREFIX [norpath]
#                         TensorFlow 2.10 in a conda env at PREFIX with
#                         cudatoolkit 11.2 and cudnn 8.1 (their libraries in
#                         PREFIX/lib), on a fresh tree with a healthy GPU and
#                         CUDA 12.4; norpath: its python has no RPATH, so
#                         nothing finds PREFIX/lib
#   fw_jq ENV_PREFIX FRAMEWORK FILTER
#                         jq FILTER on that framework's fact in the last
#                         doctor run (FRAMEWORK is the matrix name)
#   fw_need ENV_PREFIX FRAMEWORK SONAME FILTER
#                         jq FILTER on one of its needs

: "${FIXTURE_CC:=cc}"

fx_fw_cache=${FX_SOCACHE:-$FX_TMP/cudawiz-so-cache.$(id -u)}
mkdir -p "$fx_fw_cache"

# A library of that soname to link against, in the cache.
fx_fw_stub() {
	[ -s "$fx_fw_cache/$1" ] && return 0
	printf 'int cudawiz_fixture_%s(void) { return 1; }\n' \
	    "$(printf '%s' "$1" | tr -c 'A-Za-z0-9' '_')" |
	    $FIXTURE_CC -shared -fPIC -x c -o "$fx_fw_cache/$1.tmp.$$" \
	    -Wl,-soname,"$1" - || return 1
	mv -f "$fx_fw_cache/$1.tmp.$$" "$fx_fw_cache/$1"
}

fx_lib() {
	fx_l_path=$1
	fx_l_soname=$2
	shift 2
	fx_l_flags=
	fx_l_needs=
	while [ $# -gt 0 ]; do
		case $1 in
		-r) fx_l_flags="$fx_l_flags -Wl,--enable-new-dtags -Wl,-rpath,$2"; shift 2 ;;
		-R) fx_l_flags="$fx_l_flags -Wl,--disable-new-dtags -Wl,-rpath,$2"; shift 2 ;;
		*) fx_fw_stub "$1" || return 1
		   fx_l_needs="$fx_l_needs -l:$1"; shift ;;
		esac
	done
	fx_l_key=$(printf '%s|' "$fx_l_soname" "$fx_l_flags" "$fx_l_needs" |
	    cksum | cut -d' ' -f1)
	fx_l_cached=$fx_fw_cache/lib-$fx_l_key.so
	if [ ! -s "$fx_l_cached" ]; then
		# shellcheck disable=SC2086
		printf 'int cudawiz_fixture_lib(void) { return 1; }\n' |
		    $FIXTURE_CC -shared -fPIC -x c -o "$fx_l_cached.tmp.$$" \
		    -Wl,-soname,"$fx_l_soname" - $fx_l_flags \
		    -Wl,--no-as-needed -L"$fx_fw_cache" $fx_l_needs || return 1
		mv -f "$fx_l_cached.tmp.$$" "$fx_l_cached"
	fi
	mkdir -p "$(dirname "$FX$fx_l_path")"
	cp "$fx_l_cached" "$FX$fx_l_path"
}

NVCC=${NVCC:-$(command -v nvcc 2>/dev/null || echo /usr/local/cuda/bin/nvcc)}

fx_cuda_lib() {
	fx_cl_path=$1
	fx_cl_soname=$2
	fx_cl_gen=
	for g in $3; do
		case $g in
		*:sm) fx_cl_gen="$fx_cl_gen -gencode arch=compute_${g%:*},code=sm_${g%:*}" ;;
		*:ptx) fx_cl_gen="$fx_cl_gen -gencode arch=compute_${g%:*},code=compute_${g%:*}" ;;
		esac
	done
	shift 3
	fx_cl_needs=
	for n in "$@"; do
		fx_fw_stub "$n" || return 1
		fx_cl_needs="$fx_cl_needs -l:$n"
	done
	[ -x "$NVCC" ] || return 1
	fx_cl_key=$(printf 'cuda|%s|' "$fx_cl_soname" "$fx_cl_gen" "$fx_cl_needs" |
	    cksum | cut -d' ' -f1)
	fx_cl_cached=$fx_fw_cache/cuda-$fx_cl_key.so
	if [ ! -s "$fx_cl_cached" ]; then
		printf '__global__ void fx_scale(float *x) { x[threadIdx.x] *= 2.0f; }\nvoid fx_launch(float *x) { fx_scale<<<1, 32>>>(x); }\n' \
		    > "$fx_cl_cached.$$.cu"
		# shellcheck disable=SC2086
		"$NVCC" -Xcompiler -fPIC -shared -cudart none \
		    -Xlinker -soname="$fx_cl_soname" -Xlinker --no-as-needed \
		    -L"$fx_fw_cache" $fx_cl_needs $fx_cl_gen \
		    -o "$fx_cl_cached.tmp.$$" "$fx_cl_cached.$$.cu" \
		    > "$fx_cl_cached.$$.log" 2>&1 || {
			sed 's/^/# nvcc: /' "$fx_cl_cached.$$.log" | head -n 5
			rm -f "$fx_cl_cached.$$.cu" "$fx_cl_cached.$$.log" \
			    "$fx_cl_cached.tmp.$$"
			return 1
		}
		rm -f "$fx_cl_cached.$$.cu" "$fx_cl_cached.$$.log"
		mv -f "$fx_cl_cached.tmp.$$" "$fx_cl_cached"
	fi
	mkdir -p "$(dirname "$FX$fx_cl_path")"
	cp "$fx_cl_cached" "$FX$fx_cl_path"
}

FATBIN_LIST=${FATBIN_LIST:-$(dirname "$CUDAWIZ")/tests/tools/fatbin-list}
OBJCOPY=${OBJCOPY:-objcopy}

fx_fatbin_lib() {
	fx_fb_path=$1
	fx_fb_soname=$2
	fx_fb_spec=$3
	shift 3
	[ -x "$FATBIN_LIST" ] && command -v "$OBJCOPY" >/dev/null 2>&1 || return 1
	fx_lib "$fx_fb_path" "$fx_fb_soname" "$@" || return 1
	"$FATBIN_LIST" --blob "$fx_fw_cache/blob.$$" "$fx_fb_spec" &&
	    "$OBJCOPY" --add-section .nv_fatbin="$fx_fw_cache/blob.$$" "$FX$fx_fb_path"
	fx_fb_rc=$?
	rm -f "$fx_fw_cache/blob.$$"
	return $fx_fb_rc
}

fx_exe() {
	fx_e_key=$(printf 'exe|%s' "${2:-}" | cksum | cut -d' ' -f1)
	fx_e_cached=$fx_fw_cache/exe-$fx_e_key
	if [ ! -s "$fx_e_cached" ]; then
		if [ -n "${2:-}" ]; then
			printf 'int main(void) { return 0; }\n' |
			    $FIXTURE_CC -x c -o "$fx_e_cached.tmp.$$" - \
			    -Wl,--disable-new-dtags -Wl,-rpath,"$2" || return 1
		else
			printf 'int main(void) { return 0; }\n' |
			    $FIXTURE_CC -x c -o "$fx_e_cached.tmp.$$" - || return 1
		fi
		mv -f "$fx_e_cached.tmp.$$" "$fx_e_cached"
	fi
	mkdir -p "$(dirname "$FX$1")"
	cp "$fx_e_cached" "$FX$1"
	chmod +x "$FX$1"
}

fx_dist() {
	fx_d_site=$1
	fx_d_name=$2
	fx_d_ver=$3
	shift 3
	fx_d_dir=$fx_d_site/$(printf '%s' "$fx_d_name" | tr '-' '_')-$fx_d_ver.dist-info
	{
		printf 'Metadata-Version: 2.1\nName: %s\nVersion: %s\n' \
		    "$fx_d_name" "$fx_d_ver"
		for r in "$@"; do
			printf 'Requires-Dist: %s\n' "$r"
		done
	} | fx_file "$fx_d_dir/METADATA"
	fx_file "$fx_d_dir/INSTALLER" pip
}

fx_conda_meta() {
	fx_file "$1/conda-meta/$2-$3-$4.json" "{ \"name\": \"$2\", \"version\": \"$3\", \"build\": \"$4\", \"build_number\": 0, \"channel\": \"https://conda.anaconda.org/${5:-conda-forge}/linux-64\" }"
}

fx_condaenv() {
	fx_c_py=${2:-3.10}
	fx_file "$1/conda-meta/history" "==> 2024-01-01 00:00:00 <=="
	fx_conda_meta "$1" python "$fx_c_py.0" h1234_0_cpython
	if [ "${3:-}" = norpath ]; then
		fx_exe "$1/bin/python$fx_c_py"
	else
		fx_exe "$1/bin/python$fx_c_py" '$ORIGIN/../lib'
	fi
	fx_link "python$fx_c_py" "$1/bin/python3"
	fx_link "python$fx_c_py" "$1/bin/python"
	fx_dir "$1/lib/python$fx_c_py/site-packages"
	FX_SITE=$1/lib/python$fx_c_py/site-packages
}

fx_venv_env() {
	fx_v_py=${2:-3.11}
	fx_exe "/usr/bin/python$fx_v_py"
	fx_file "$1/pyvenv.cfg" "home = /usr/bin
include-system-site-packages = false
version = $fx_v_py.4"
	fx_link "/usr/bin/python$fx_v_py" "$1/bin/python$fx_v_py"
	fx_link "python$fx_v_py" "$1/bin/python3"
	fx_link "python$fx_v_py" "$1/bin/python"
	fx_dir "$1/lib/python$fx_v_py/site-packages"
	FX_SITE=$1/lib/python$fx_v_py/site-packages
}

fx_nvidia_wheel() {
	fx_w_dir=$(jq -r --arg p "$2" '.wheels[] | select(.package == $p) | .lib_dir' \
	    "$TESTS_SRCDIR/../data/matrix.json" | head -n 1)
	[ -n "$fx_w_dir" ] || { diag "no wheel $2 in data/matrix.json"; return 1; }
	fx_dist "$1" "$2" "$3"
	fx_file "$1/nvidia/__init__.py" ""
	for fx_w_so in $(jq -r --arg p "$2" '.wheels[] | select(.package == $p) |
	    .provides[]' "$TESTS_SRCDIR/../data/matrix.json"); do
		fx_so "$1/$fx_w_dir/$fx_w_so" "$fx_w_so" || return 1
	done
	fx_dir "$1/$fx_w_dir"
}

fx_torch() {
	fx_t_site=$1
	fx_t_ver=$2
	fx_t_cuda=$3
	shift 3
	fx_dist "$fx_t_site" torch "$fx_t_ver"
	fx_file "$fx_t_site/torch/__init__.py" ""
	if [ "$fx_t_cuda" = None ]; then
		fx_t_line="cuda: Optional[str] = None"
	else
		fx_t_line="cuda: Optional[str] = '$fx_t_cuda'"
	fi
	fx_file "$fx_t_site/torch/version.py" "from typing import Optional

__all__ = ['__version__', 'debug', 'cuda', 'git_version', 'hip']
__version__ = '$fx_t_ver'
debug = False
$fx_t_line
git_version = '7bcf7da3a268b435777fe87c7794c382f444e86d'
hip: Optional[str] = None"
	fx_lib "$fx_t_site/torch/lib/libtorch_cpu.so" libtorch_cpu.so || return 1
	[ "$fx_t_cuda" = None ] && return 0
	fx_lib "$fx_t_site/torch/lib/libtorch_cuda.so" libtorch_cuda.so "$@"
}

fx_tf_conda() {
	fx_new
	fx_healthy_gpu
	fx_toolkit 12.4.1
	fx_condaenv "$1" 3.10 "${2:-}"
	fx_conda_meta "$1" cudatoolkit 11.2.2 hbe64b41_10
	fx_conda_meta "$1" cudnn 8.1.0.77 h90431f1_0
	fx_cudart "$1/lib" 11.2.152
	for fx_l in libcublas libcublasLt; do
		fx_so "$1/lib/$fx_l.so.11.4.1.1043" $fx_l.so.11
		fx_link $fx_l.so.11.4.1.1043 "$1/lib/$fx_l.so.11"
	done
	fx_cudnn "$1/lib" 8.1.0
	fx_tensorflow "$FX_SITE" tensorflow 2.10.0 11.2 8
}

fx_tensorflow() {
	fx_tf_site=$1
	fx_tf_pkg=$2
	fx_tf_ver=$3
	shift 3
	fx_tf_cuda=
	fx_tf_cudnn=
	case ${1:-} in
	[0-9]*) fx_tf_cuda=$1; fx_tf_cudnn=$2; shift 2 ;;
	esac
	fx_dist "$fx_tf_site" "$fx_tf_pkg" "$fx_tf_ver"
	fx_file "$fx_tf_site/tensorflow/__init__.py" ""
	if [ -n "$fx_tf_cuda" ]; then
		fx_file "$fx_tf_site/tensorflow/python/platform/build_info.py" "\"\"\"Auto-generated module providing information about the build.\"\"\"
import collections

build_info = collections.OrderedDict([('cpu_compiler', '/dt9/usr/bin/gcc'), ('cuda_compute_capabilities', ['sm_35', 'sm_50', 'sm_60', 'sm_70', 'sm_75', 'compute_80']), ('cuda_version', '$fx_tf_cuda'), ('cudnn_version', '$fx_tf_cudnn'), ('is_cuda_build', True), ('is_rocm_build', False), ('is_tensorrt_build', True)])"
	else
		fx_file "$fx_tf_site/tensorflow/python/platform/build_info.py" "import collections

build_info = collections.OrderedDict([('cpu_compiler', '/dt9/usr/bin/gcc'), ('is_cuda_build', False), ('is_rocm_build', False), ('is_tensorrt_build', False)])"
	fi
	fx_lib "$fx_tf_site/tensorflow/libtensorflow_framework.so.2" \
	    libtensorflow_framework.so.2 "$@"
}

fx_cupy() {
	fx_dist "$1" "$2" "$3"
	fx_file "$1/cupy/__init__.py" ""
	[ -n "${4:-}" ] && fx_file "$1/cupy/.data/_wheel.json" \
	    "{\"cuda\": \"$4\", \"packaging\": \"pip\"}"
	fx_lib "$1/cupy_backends/cuda/api/runtime.cpython-310-x86_64-linux-gnu.so" \
	    runtime.cpython-310-x86_64-linux-gnu.so
}

fx_spacy() {
	fx_dist "$1" spacy "$2" "cupy-cuda11x<13.0.0,>=11.0.0; extra == \"cuda11x\""
	fx_file "$1/spacy/__init__.py" ""
	fx_dist "$1" thinc 8.2.2
	fx_file "$1/thinc/__init__.py" ""
}

fx_jax() {
	fx_j_site=$1
	fx_j_ver=$2
	fx_dist "$fx_j_site" jaxlib "$fx_j_ver"
	fx_file "$fx_j_site/jaxlib/__init__.py" ""
	fx_lib "$fx_j_site/jaxlib/xla_extension.so" xla_extension.so || return 1
	[ -n "${3:-}" ] || return 0
	fx_j_pkg=$3
	shift 3
	fx_j_major=$(printf '%s' "$fx_j_pkg" | sed -n 's/^jax-cuda\([0-9]*\)-.*/\1/p')
	fx_dist "$fx_j_site" "$fx_j_pkg" "$fx_j_ver"
	fx_lib "$fx_j_site/jax_plugins/xla_cuda$fx_j_major/xla_cuda_plugin.so" \
	    xla_cuda_plugin.so "$@"
}

fx_onnxruntime() {
	fx_o_site=$1
	fx_o_pkg=$2
	fx_dist "$fx_o_site" "$fx_o_pkg" "$3"
	shift 3
	fx_file "$fx_o_site/onnxruntime/__init__.py" ""
	case $fx_o_pkg in
	*-gpu) fx_lib "$fx_o_site/onnxruntime/capi/libonnxruntime_providers_cuda.so" \
	    libonnxruntime_providers_cuda.so "$@" ;;
	esac
}

fx_paddle() {
	fx_dist "$1" "$2" "$3"
	fx_file "$1/paddle/__init__.py" ""
	fx_file "$1/paddle/version/__init__.py" "# THIS FILE IS GENERATED FROM PADDLEPADDLE SETUP.PY
#
full_version    = '${3%%.post*}'
major           = '${3%%.*}'
istaged         = True
commit          = 'fbf852dd832bc0e63ae31cd4aa37defd829e4c03'
with_mkl        = 'ON'
cuda_version    = '${4:-False}'
cudnn_version   = '${5:-False}'"
	[ -n "${4:-}" ] && fx_lib "$1/paddle/base/libpaddle.so" libpaddle.so
	return 0
}

fx_mxnet() {
	fx_m_site=$1
	fx_m_pkg=$2
	fx_dist "$fx_m_site" "$fx_m_pkg" "$3"
	shift 3
	fx_file "$fx_m_site/mxnet/__init__.py" ""
	case $fx_m_pkg in
	mxnet-cu*) fx_lib "$fx_m_site/mxnet/libmxnet.so" libmxnet.so "$@" ;;
	*) fx_lib "$fx_m_site/mxnet/libmxnet.so" libmxnet.so ;;
	esac
}

fx_numba() {
	fx_dist "$1" "$2" "$3"
	case $2 in
	numba-cuda) fx_file "$1/numba_cuda/__init__.py" "" ;;
	*) fx_file "$1/numba/__init__.py" "" ;;
	esac
}

fw_jq() {
	jq -r --arg p "$1" --arg n "$2" "[.facts.python_envs[] | select(.prefix == \$p) |
	    .frameworks[] | select(.name == \$n)][0] | $3" "$FX_OUT" 2>/dev/null
}

fw_need() {
	jq -r --arg p "$1" --arg n "$2" --arg s "$3" "[.facts.python_envs[] |
	    select(.prefix == \$p) | .frameworks[] | select(.name == \$n) |
	    .needs[] | select(.soname == \$s)][0] | $4" "$FX_OUT" 2>/dev/null
}
