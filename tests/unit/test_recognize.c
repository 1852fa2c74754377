/* Unit tests for `explain`'s pure parts. The recogniser: real-world
 * wordings of each message (from TensorFlow, PyTorch, CuPy, numba,
 * nvidia-smi and glibc as users paste them) in, the kind and the names and
 * versions out; whole tracebacks, repeats, unrecognised text, binary
 * garbage and the edges of the input. The rules (rules_explain): hand-built
 * facts and library facts with the embedded matrix, the finding code, its
 * key evidence and the fix chosen for the driver. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "diagnose/diagnose.h"
#include "explain/recognize.h"
#include "lib/tap.h"
#include "matrix/matrix.h"
#include "util/xalloc.h"

struct want {
	const char		*input;
	enum explain_kind	 kind;
	const char		*soname;
	const char		*file;
	const char		*required_by;
	const char		*symbol;
	const char		*version;
	const char		*found;
	const char		*wanted;
	const char		*code;
	long			 number;	/* 0: not checked */
	const char		*cc;
};

static const struct want cases[] = {
	{ "2024-02-25 18:52:47.991396: W tensorflow/stream_executor/platform/default/dso_loader.cc:64] "
	  "Could not load dynamic library 'libcudart.so.11.0'; dlerror: libcudart.so.11.0: cannot open "
	  "shared object file: No such file or directory; LD_LIBRARY_PATH: /usr/local/nvidia/lib:/usr/local/nvidia/lib64",
	  EXPLAIN_DLOPEN_FAILED, "libcudart.so.11.0", NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, NULL },
	{ "Could not load dynamic library 'libcudnn.so.8'; dlerror: libcudnn.so.8: cannot open shared object file: No such file or directory",
	  EXPLAIN_DLOPEN_FAILED, "libcudnn.so.8", NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, NULL },
	{ "ImportError: libcudnn.so.8: cannot open shared object file: No such file or directory",
	  EXPLAIN_CANNOT_OPEN, "libcudnn.so.8", NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, NULL },
	{ "./deviceQuery: error while loading shared libraries: libcudart.so.12: cannot open shared object file: No such file or directory",
	  EXPLAIN_CANNOT_OPEN, "libcudart.so.12", NULL, "./deviceQuery", NULL, NULL, NULL, NULL, NULL, 0, NULL },
	{ "OSError: /opt/conda/lib/libcublasLt.so.12: cannot open shared object file: Permission denied",
	  EXPLAIN_CANNOT_OPEN, "libcublasLt.so.12", "/opt/conda/lib/libcublasLt.so.12", NULL, NULL, NULL, NULL, NULL, NULL, 0, NULL },
	{ "OSError: /home/dl/GAIL/lib/python3.8/site-packages/torch/lib/../../nvidia/cublas/lib/libcublas.so.11: "
	  "undefined symbol: cublasLtGetStatusString, version libcublasLt.so.11",
	  EXPLAIN_UNDEFINED_SYMBOL, "libcublasLt.so.11", NULL,
	  "/home/dl/GAIL/lib/python3.8/site-packages/torch/lib/../../nvidia/cublas/lib/libcublas.so.11",
	  "cublasLtGetStatusString", "libcublasLt.so.11", NULL, NULL, NULL, 0, NULL },
	{ "ImportError: /usr/lib/python3/dist-packages/cupy/_core/core.so: undefined symbol: cudaGraphInstantiateWithFlags",
	  EXPLAIN_UNDEFINED_SYMBOL, NULL, NULL, "/usr/lib/python3/dist-packages/cupy/_core/core.so",
	  "cudaGraphInstantiateWithFlags", NULL, NULL, NULL, NULL, 0, NULL },
	{ "OSError: /home/piai/anaconda3/envs/asdasd/lib/python3.7/site-packages/nvidia/cublas/lib/libcublas.so.11: symbol "
	  "cublasLtHSHMatmulAlgoInit version libcublasLt.so.11 not defined in file libcublasLt.so.11 with link time reference",
	  EXPLAIN_UNDEFINED_SYMBOL, "libcublasLt.so.11", NULL,
	  "/home/piai/anaconda3/envs/asdasd/lib/python3.7/site-packages/nvidia/cublas/lib/libcublas.so.11",
	  "cublasLtHSHMatmulAlgoInit", "libcublasLt.so.11", NULL, NULL, NULL, 0, NULL },
	{ "/lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.34' not found (required by /opt/app/bin/trainer)",
	  EXPLAIN_VERSION_NOT_FOUND, "libc.so.6", "/lib/x86_64-linux-gnu/libc.so.6", "/opt/app/bin/trainer",
	  NULL, "GLIBC_2.34", NULL, NULL, NULL, 0, NULL },
	{ "ImportError: /usr/lib/x86_64-linux-gnu/libstdc++.so.6: version 'GLIBCXX_3.4.30' not found (required by /env/lib/libtorch_cpu.so)",
	  EXPLAIN_VERSION_NOT_FOUND, "libstdc++.so.6", "/usr/lib/x86_64-linux-gnu/libstdc++.so.6", "/env/lib/libtorch_cpu.so",
	  NULL, "GLIBCXX_3.4.30", NULL, NULL, NULL, 0, NULL },
	{ "python: /usr/local/cuda/lib64/libcudart.so.12: version \xe2\x80\x98libcudart.so.12\xe2\x80\x99 not found (required by /site/torch/lib/libc10_cuda.so)",
	  EXPLAIN_VERSION_NOT_FOUND, "libcudart.so.12", "/usr/local/cuda/lib64/libcudart.so.12", "/site/torch/lib/libc10_cuda.so",
	  NULL, "libcudart.so.12", NULL, NULL, NULL, 0, NULL },
	{ "./app: error while loading shared libraries: libcuda.so.1: wrong ELF class: ELFCLASS32",
	  EXPLAIN_WRONG_ELF_CLASS, "libcuda.so.1", NULL, NULL, NULL, NULL, "ELFCLASS32", NULL, NULL, 0, NULL },
	{ "OSError: /usr/lib/i386-linux-gnu/libcuda.so.1: wrong ELF class: ELFCLASS32",
	  EXPLAIN_WRONG_ELF_CLASS, "libcuda.so.1", "/usr/lib/i386-linux-gnu/libcuda.so.1", NULL, NULL, NULL, "ELFCLASS32", NULL, NULL, 0, NULL },
	{ "W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load dynamic library 'cudart64_110.dll'; dlerror: cudart64_110.dll not found",
	  EXPLAIN_DLL_NOT_FOUND, "cudart64_110.dll", NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, NULL },
	{ "Could not load dynamic library 'cudnn64_8.dll'; dlerror: cudnn64_8.dll not found",
	  EXPLAIN_DLL_NOT_FOUND, "cudnn64_8.dll", NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, NULL },
	{ "cublas64_11.dll not found",
	  EXPLAIN_DLL_NOT_FOUND, "cublas64_11.dll", NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, NULL },
	{ "Could not locate zlibwapi.dll. Please make sure it is in your library path!",
	  EXPLAIN_DLL_NOT_FOUND, "zlibwapi.dll", NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, NULL },
	{ "OSError: [WinError 126] The specified module could not be found. Error loading \"C:\\Python310\\lib\\site-packages\\torch\\lib\\cudnn_cnn_infer64_8.dll\" or one of its dependencies.",
	  EXPLAIN_DLL_NOT_FOUND, "cudnn_cnn_infer64_8.dll", "C:\\Python310\\lib\\site-packages\\torch\\lib\\cudnn_cnn_infer64_8.dll",
	  NULL, NULL, NULL, NULL, NULL, NULL, 0, NULL },
	{ "RuntimeError: CUDA error: CUDA driver version is insufficient for CUDA runtime version",
	  EXPLAIN_DRIVER_TOO_OLD, NULL, NULL, NULL, NULL, NULL, NULL, NULL, "cudaErrorInsufficientDriver", 35, NULL },
	{ "cudaGetDeviceCount returned 35",
	  EXPLAIN_DRIVER_TOO_OLD, NULL, NULL, NULL, NULL, NULL, NULL, NULL, "cudaErrorInsufficientDriver", 35, NULL },
	{ "RuntimeError: The NVIDIA driver on your system is too old (found version 11040). Please update your GPU driver",
	  EXPLAIN_DRIVER_TOO_OLD, NULL, NULL, NULL, NULL, NULL, "11.4", NULL, NULL, 0, NULL },
	{ "Failed to initialize NVML: Driver/library version mismatch\nNVML library version: 535.104",
	  EXPLAIN_DRIVER_MISMATCH, NULL, NULL, NULL, NULL, NULL, NULL, "535.104", NULL, 0, NULL },
	{ "E tensorflow/stream_executor/cuda/cuda_diagnostics.cc:313] kernel version 470.57.2 does not match DSO version 510.47.3 -- cannot find working devices in this configuration",
	  EXPLAIN_DRIVER_MISMATCH, NULL, NULL, NULL, NULL, NULL, "470.57.2", "510.47.3", NULL, 0, NULL },
	{ "NVRM: API mismatch: the NVIDIA kernel module has version 535.54.03,\nbut this NVIDIA driver component has version 535.104.05.",
	  EXPLAIN_DRIVER_MISMATCH, NULL, NULL, NULL, NULL, NULL, "535.54.03", NULL, NULL, 0, NULL },
	{ "numba.cuda.cudadrv.driver.CudaAPIError: [34] Call to cuInit results in CUDA_ERROR_STUB_LIBRARY",
	  EXPLAIN_STUB_LIBRARY, NULL, NULL, NULL, NULL, NULL, NULL, NULL, "CUDA_ERROR_STUB_LIBRARY", 34, NULL },
	{ "CUDA API Error at line 28: CUDA driver is a stub library",
	  EXPLAIN_STUB_LIBRARY, NULL, NULL, NULL, NULL, NULL, NULL, NULL, "cudaErrorStubLibrary", 34, NULL },
	{ "cuInit failed with error 34",
	  EXPLAIN_STUB_LIBRARY, NULL, NULL, NULL, NULL, NULL, NULL, NULL, "cudaErrorStubLibrary", 34, NULL },
	{ "RuntimeError: CUDA error: no kernel image is available for execution on the device\nCUDA kernel errors might be asynchronously reported",
	  EXPLAIN_NO_KERNEL_IMAGE, NULL, NULL, NULL, NULL, NULL, NULL, NULL, "cudaErrorNoKernelImageForDevice", 209, NULL },
	{ "NVIDIA A40 with CUDA capability sm_86 is not compatible with the current PyTorch installation.\n"
	  "The current PyTorch install supports CUDA capabilities sm_37 sm_50 sm_60 sm_70.",
	  EXPLAIN_ARCH_UNSUPPORTED, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, "8.6" },
	{ "UserWarning: NVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the current PyTorch installation.",
	  EXPLAIN_ARCH_UNSUPPORTED, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, "12.0" },
	{ "Found GPU0 Tesla K40c which is of cuda capability 3.5.\n    PyTorch no longer supports this GPU because it is too old.\n"
	  "    The minimum cuda capability supported by this library is 3.7.",
	  EXPLAIN_ARCH_UNSUPPORTED, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, "3.5" },
	{ "CUDA_ERROR_UNSUPPORTED_PTX_VERSION: the provided PTX was compiled with an unsupported toolchain.",
	  EXPLAIN_PTX_TOOLCHAIN, NULL, NULL, NULL, NULL, NULL, NULL, NULL, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION", 222, NULL },
	{ "RuntimeError: CUDA error: forward compatibility was attempted on non supported HW",
	  EXPLAIN_FORWARD_COMPAT, NULL, NULL, NULL, NULL, NULL, NULL, NULL, "cudaErrorCompatNotSupportedOnDevice", 804, NULL },
	{ "RuntimeError: No CUDA GPUs are available\ncudaErrorNoDevice: no CUDA-capable device is detected",
	  EXPLAIN_NO_DEVICE, NULL, NULL, NULL, NULL, NULL, NULL, NULL, "cudaErrorNoDevice", 100, NULL },
	{ "RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver",
	  EXPLAIN_NO_DRIVER, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, NULL },
	{ "E cuda_dnn.cc:362] Loaded runtime CuDNN library: 8.0.4 but source was compiled with: 8.1.0.  CuDNN library needs to have matching major version and equal or higher minor version.",
	  EXPLAIN_CUDNN_VERSION, NULL, NULL, NULL, NULL, NULL, "8.0.4", "8.1.0", NULL, 0, NULL },
	{ "Loaded runtime CuDNN library: 7201 (compatibility version 7200) but source was compiled with 7004 (compatibility version 7000).",
	  EXPLAIN_CUDNN_VERSION, NULL, NULL, NULL, NULL, NULL, "7.2.1", "7.0.4", NULL, 0, NULL },
	{ "RuntimeError: cuDNN version incompatibility: PyTorch was compiled  against (8, 9, 2) but found runtime version (8, 5, 0).",
	  EXPLAIN_CUDNN_VERSION, NULL, NULL, NULL, NULL, NULL, "8.5.0", "8.9.2", NULL, 0, NULL },
	{ "UnknownError: Failed to get convolution algorithm. This is probably because cuDNN failed to initialize\n"
	  "E tensorflow/stream_executor/cuda/cuda_dnn.cc:329] Could not create cudnn handle: CUDNN_STATUS_NOT_INITIALIZED",
	  EXPLAIN_CUDNN_STATUS, NULL, NULL, NULL, NULL, NULL, NULL, NULL, "CUDNN_STATUS_NOT_INITIALIZED", 1001, NULL },
	{ "RuntimeError: cuDNN error: CUDNN_STATUS_EXECUTION_FAILED",
	  EXPLAIN_CUDNN_STATUS, NULL, NULL, NULL, NULL, NULL, NULL, NULL, "CUDNN_STATUS_EXECUTION_FAILED", 5000, NULL },
	{ "cudnnBackendFinalize failed: CUDNN_STATUS_NOT_SUPPORTED_GRAPH_PATTERN",
	  EXPLAIN_CUDNN_STATUS, NULL, NULL, NULL, NULL, NULL, NULL, NULL, "CUDNN_STATUS_NOT_SUPPORTED_GRAPH_PATTERN", -1, NULL },
	{ "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 3.82 GiB total capacity)",
	  EXPLAIN_OUT_OF_MEMORY, NULL, NULL, NULL, NULL, NULL, NULL, NULL, "cudaErrorMemoryAllocation", 2, NULL },
	/* recognize_more.c (issue 19) */
	{ "RuntimeError:\nThe detected CUDA version (12.1) mismatches the version that was used to compile\n"
	  "PyTorch (11.8). Please make sure to use the same CUDA versions.",
	  EXPLAIN_BUILD_CUDA_MISMATCH, NULL, NULL, NULL, NULL, NULL, "12.1", "11.8", NULL, 0, NULL },
	{ "nvcc fatal   : Unsupported gpu architecture 'compute_89'",
	  EXPLAIN_TOOLKIT_ARCH, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, "8.9" },
	{ "nvcc fatal   : Value 'sm_90a' is not defined for option 'gpu-architecture'",
	  EXPLAIN_TOOLKIT_ARCH, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, "9.0" },
	{ "ptxas /tmp/x.ptx, line 5; fatal   : Unsupported .version 8.4; current version is '8.2'",
	  EXPLAIN_PTXAS_VERSION, NULL, NULL, NULL, NULL, NULL, "8.4", "8.2", NULL, 0, NULL },
	{ "W tensorflow/core/common_runtime/gpu/gpu_device.cc:1934] Cannot dlopen some GPU libraries. Please make sure the missing libraries mentioned above are installed properly",
	  EXPLAIN_CAUSE_ELSEWHERE, NULL, NULL, NULL, NULL, NULL, NULL, NULL, "tensorflow", 0, NULL },
	{ "RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:275, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.20.5",
	  EXPLAIN_CAUSE_ELSEWHERE, NULL, NULL, NULL, NULL, NULL, NULL, NULL, "nccl", 0, NULL },
	{ "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 4770354232 bytes.",
	  EXPLAIN_OUT_OF_MEMORY, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, NULL },
	{ "RuntimeError: CUDA unknown error - this may be due to an incorrectly set up environment",
	  EXPLAIN_CUDA_ERROR, NULL, NULL, NULL, NULL, NULL, NULL, NULL, "cudaErrorUnknown", 999, NULL },
	{ "RuntimeError: CUDA error: device-side assert triggered",
	  EXPLAIN_CUDA_ERROR, NULL, NULL, NULL, NULL, NULL, NULL, NULL, "cudaErrorAssert", 710, NULL },
	{ "AssertionError: Torch not compiled with CUDA enabled",
	  EXPLAIN_CPU_ONLY_BUILD, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, NULL },
	{ "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.",
	  EXPLAIN_NO_DRIVER, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, NULL },
	{ "RuntimeError: Library libcublas.so.12 is not found or cannot be loaded",
	  EXPLAIN_CANNOT_OPEN, "libcublas.so.12", NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, NULL },
	{ "RuntimeError: Library cublas64_12.dll is not found or cannot be loaded",
	  EXPLAIN_DLL_NOT_FOUND, "cublas64_12.dll", NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, NULL },
	{ "Could not locate zlibwapi.dll. Please make sure it is in your library path!",
	  EXPLAIN_DLL_NOT_FOUND, "zlibwapi.dll", NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, NULL },
	{ "NVRM: API mismatch: the client has the version 535.183.01, but\nNVRM: this kernel module has the version 535.171.04.  Please",
	  EXPLAIN_DRIVER_MISMATCH, NULL, NULL, NULL, NULL, NULL, "535.171.04", "535.183.01", NULL, 0, NULL },
	{ "cuModuleLoadData returned CUDA_ERROR_JIT_COMPILER_NOT_FOUND",
	  EXPLAIN_CUDA_ERROR, NULL, NULL, NULL, NULL, NULL, NULL, NULL, "CUDA_ERROR_JIT_COMPILER_NOT_FOUND", 221, NULL },
};

static void
check_field(const char *got, const char *want, size_t i, const char *field)
{
	if (want != NULL)
		is_str(got, want, "case %zu: %s", i, field);
}

static void
table_cases(void)
{
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const struct want *w = &cases[i];
		struct explain ex = { 0 };
		const struct explain_match *m;

		explain_recognise(w->input, strlen(w->input), &ex);
		is_int(ex.matches.n, 1, "case %zu: one match (%s)", i,
		    explain_kind_name(w->kind));
		if (ex.matches.n != 1) {
			for (size_t k = 0; k < ex.matches.n; k++)
				printf("#   match %zu: %s\n", k,
				    explain_kind_name(ex.matches.v[k].kind));
		}
		if (ex.matches.n == 0) {
			explain_free(&ex);
			continue;
		}
		m = &ex.matches.v[0];
		is_str(explain_kind_name(m->kind), explain_kind_name(w->kind),
		    "case %zu: kind", i);
		check_field(m->soname, w->soname, i, "soname");
		check_field(m->file, w->file, i, "file");
		check_field(m->required_by, w->required_by, i, "required_by");
		check_field(m->symbol, w->symbol, i, "symbol");
		check_field(m->version, w->version, i, "version");
		check_field(m->found, w->found, i, "found");
		check_field(m->wanted, w->wanted, i, "wanted");
		check_field(m->code, w->code, i, "code");
		check_field(m->cc, w->cc, i, "cc");
		if (w->number != 0)
			is_int(m->number, w->number, "case %zu: number", i);
		ok(m->excerpt != NULL && m->excerpt[0] != '\0',
		    "case %zu: has an excerpt", i);
		explain_free(&ex);
	}
}

static struct explain
run(const char *text)
{
	struct explain ex = { 0 };

	explain_recognise(text, strlen(text), &ex);
	return ex;
}

/* Details a table row cannot hold. */
static void
details(void)
{
	struct explain ex;
	const struct explain_match *m;

	ex = run("Could not load dynamic library 'libcudart.so.11.0'; dlerror: "
	    "libcudart.so.11.0: cannot open shared object file: No such file or "
	    "directory; LD_LIBRARY_PATH: /usr/local/nvidia/lib:/usr/local/nvidia/lib64");
	m = &ex.matches.v[0];
	is_str(m->reason, "libcudart.so.11.0: cannot open shared object file: No such file or directory",
	    "TensorFlow: dlerror kept as the reason");
	is_str(m->ld_library_path, "/usr/local/nvidia/lib:/usr/local/nvidia/lib64",
	    "TensorFlow: the LD_LIBRARY_PATH it ran with");
	explain_free(&ex);

	ex = run("ImportError: libcudnn.so.8: cannot open shared object file: No such file or directory");
	is_str(ex.matches.v[0].reason, "No such file or directory", "glibc: errno text as the reason");
	explain_free(&ex);

	ex = run("NVIDIA A40 with CUDA capability sm_86 is not compatible with the "
	    "current PyTorch installation.\nThe current PyTorch install supports "
	    "CUDA capabilities sm_37 sm_50 sm_60 sm_70 compute_37.");
	m = &ex.matches.v[0];
	is_str(m->device, "NVIDIA A40", "PyTorch arch: the GPU's name");
	is_int(m->ccs.n, 5, "PyTorch arch: the five capabilities the build has");
	is_str(m->ccs.n == 5 ? m->ccs.v[4] : NULL, "compute_37", "PyTorch arch: PTX entry kept as written");
	explain_free(&ex);

	ex = run("Found GPU0 Tesla K40c which is of cuda capability 3.5.\n"
	    "The minimum cuda capability supported by this library is 3.7.");
	m = &ex.matches.v[0];
	is_str(m->device, "Tesla K40c", "PyTorch old GPU: its name");
	is_str(m->ccs.n == 1 ? m->ccs.v[0] : NULL, "3.7+", "PyTorch old GPU: the minimum");
	explain_free(&ex);

	ex = run("cudnnBackendFinalize failed: CUDNN_STATUS_NOT_SUPPORTED_GRAPH_PATTERN");
	ok(ex.matches.v[0].meaning != NULL &&
	    strstr(ex.matches.v[0].meaning, "no implementation") != NULL,
	    "cuDNN 9 detail code: the category's meaning");
	explain_free(&ex);

	ex = run("Loaded runtime CuDNN library: 90100 but source was compiled with: 90300");
	is_str(ex.matches.n ? ex.matches.v[0].found : NULL, "9.1.0", "cuDNN 9 integer version");
	explain_free(&ex);
}

/* A traceback with several failures gives each once, in order. */
static void
traceback(void)
{
	const char *text =
	    "2023-01-01 W dso_loader.cc:64] Could not load dynamic library 'libcudart.so.11.0'; dlerror: libcudart.so.11.0: cannot open shared object file: No such file or directory\n"
	    "2023-01-01 W dso_loader.cc:64] Could not load dynamic library 'libcublas.so.11'; dlerror: libcublas.so.11: cannot open shared object file: No such file or directory\n"
	    "2023-01-01 W dso_loader.cc:64] Could not load dynamic library 'libcudnn.so.8'; dlerror: libcudnn.so.8: cannot open shared object file: No such file or directory\n"
	    "2023-01-01 W dso_loader.cc:64] Could not load dynamic library 'libcudart.so.11.0'; dlerror: libcudart.so.11.0: cannot open shared object file: No such file or directory\n"
	    "W gpu_device.cc:1850] Cannot dlopen some GPU libraries.\n"
	    "Traceback (most recent call last):\n"
	    "  File \"train.py\", line 3, in <module>\n"
	    "RuntimeError: CUDA error: no kernel image is available for execution on the device\n";
	struct explain ex = run(text);

	/* TensorFlow's summary line is a message of its own (issue 19). */
	is_int(ex.matches.n, 5, "traceback: five distinct messages");
	if (ex.matches.n == 5) {
		is_str(ex.matches.v[0].soname, "libcudart.so.11.0", "traceback: first in text order");
		is_int(ex.matches.v[0].repeats, 1, "traceback: the repeated one counted");
		is_int(ex.matches.v[0].line, 1, "traceback: first line");
		is_str(ex.matches.v[2].soname, "libcudnn.so.8", "traceback: third");
		is_str(explain_kind_name(ex.matches.v[3].kind), "cause_elsewhere",
		    "traceback: TensorFlow's summary fourth");
		is_str(explain_kind_name(ex.matches.v[4].kind), "no_kernel_image",
		    "traceback: the CUDA error last");
		is_int(ex.matches.v[4].line, 8, "traceback: its line");
	}
	is_int(ex.sonames.n, 3, "traceback: three sonames mentioned");
	is_int(ex.lines, 8, "traceback: eight lines");
	explain_free(&ex);
}

/* A TensorFlow dlerror that is not "cannot open" stays a second match. */
static void
nested(void)
{
	struct explain ex = run("Could not load dynamic library 'libcuda.so.1'; dlerror: "
	    "/usr/lib/i386-linux-gnu/libcuda.so.1: wrong ELF class: ELFCLASS32");

	is_int(ex.matches.n, 2, "nested: dlopen and wrong class");
	if (ex.matches.n == 2)
		is_str(explain_kind_name(ex.matches.v[1].kind), "wrong_elf_class",
		    "nested: the inner glibc message kept");
	explain_free(&ex);
}

static void
unrecognised(void)
{
	struct explain ex = run("Segmentation fault after loading libcudnn_ops_infer.so.8 "
	    "and libnvinfer.so.7 on CUDA 11.8 with cuDNN 8.6.0 (Driver Version: 520.61.05, "
	    "CUDA Version: 12.0); also cudnn64_8.dll; CUBLAS_STATUS_NOT_INITIALIZED");

	is_int(ex.matches.n, 0, "unrecognised: no match");
	is_int(ex.sonames.n, 2, "unrecognised: two sonames picked out");
	ok(strv_contains(&ex.sonames, "libcudnn_ops_infer.so.8"), "unrecognised: libcudnn_ops_infer.so.8");
	ok(strv_contains(&ex.dlls, "cudnn64_8.dll"), "unrecognised: the DLL");
	ok(strv_contains(&ex.versions, "CUDA 11.8"), "unrecognised: CUDA 11.8");
	ok(strv_contains(&ex.versions, "CUDA 12.0"), "unrecognised: CUDA Version: 12.0");
	ok(strv_contains(&ex.versions, "cuDNN 8.6.0"), "unrecognised: cuDNN 8.6.0");
	ok(strv_contains(&ex.versions, "driver 520.61.05"), "unrecognised: driver");
	ok(strv_contains(&ex.errors, "CUBLAS_STATUS_NOT_INITIALIZED"), "unrecognised: the cuBLAS status");
	explain_free(&ex);

	ex = run("hello world");
	is_int(ex.matches.n + ex.sonames.n + ex.dlls.n + ex.versions.n + ex.errors.n, 0,
	    "plain prose: nothing");
	explain_free(&ex);
}

/* Garbage, truncation at every byte, and the limits. */
static void
robustness(void)
{
	const char *msg = "Could not load dynamic library 'libcudart.so.11.0'; dlerror: "
	    "libcudart.so.11.0: cannot open shared object file: No such file or directory\n"
	    "/lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.34' not found (required by ./a)\n"
	    "x.so: undefined symbol: foo, version libfoo.so.1\n"
	    "Loaded runtime CuDNN library: 8.0.4 but source was compiled with: 8.1.0.\n"
	    "cuDNN version incompatibility: PyTorch was compiled against (8, 9, 2) but found runtime version (8, 5, 0)\n"
	    "with CUDA capability sm_86 is not compatible. supports CUDA capabilities sm_37\n";
	size_t len = strlen(msg), total = 0;
	char *bin;
	struct explain ex = { 0 };
	unsigned seed = 12345;

	/* Every prefix: the parsers must stop at the end, whatever it cuts. */
	for (size_t i = 0; i <= len; i++) {
		struct explain e = { 0 };
		char *copy = xstrndup(msg, i);

		explain_recognise(copy, i, &e);
		total += e.matches.n;
		explain_free(&e);
		free(copy);
	}
	ok(total > 0, "every prefix of a traceback recognised without a fault");

	bin = xmalloc(65536);
	for (size_t i = 0; i < 65536; i++) {
		seed = seed * 1103515245 + 12345;
		bin[i] = (char)(seed >> 16);
	}
	/* A real message inside the noise, with NULs before it. */
	memcpy(bin + 30000, "\0\0libcudnn.so.8: cannot open shared object file: No such", 56);
	bin[29999] = ' ';
	explain_recognise(bin, 65536, &ex);
	ok(ex.nontext > 0, "binary: control bytes counted");
	ok(ex.matches.n >= 1, "binary: the message inside still found");
	explain_free(&ex);
	free(bin);

	memset(&ex, 0, sizeof ex);
	explain_recognise("", 0, &ex);
	is_int(ex.matches.n + ex.lines, 0, "empty input: nothing");
	explain_free(&ex);

	/* Many distinct messages: kept up to the limit, the rest counted. */
	{
		size_t n = EXPLAIN_MATCH_MAX + 10, off = 0;
		char *big = xmalloc(n * 80);

		for (size_t i = 0; i < n; i++)
			off += (size_t)sprintf(big + off, "libx%zu.so.1: cannot open shared object file\n", i);
		memset(&ex, 0, sizeof ex);
		explain_recognise(big, off, &ex);
		is_int(ex.matches.n, EXPLAIN_MATCH_MAX, "many messages: capped");
		is_int(ex.dropped, 10, "many messages: the rest counted");
		is_int(ex.sonames.n, EXPLAIN_MENTION_MAX, "many sonames: capped");
		explain_free(&ex);
		free(big);
	}

	/* A very long line: the excerpt is cut, the names are not lost. */
	{
		char *line = xmalloc(20000);

		memset(line, 'x', 19000);
		strcpy(line + 19000, " libcudnn.so.8: cannot open shared object file: No such file");
		memset(&ex, 0, sizeof ex);
		explain_recognise(line, strlen(line), &ex);
		ok(ex.matches.n == 1 && strlen(ex.matches.v[0].excerpt) < 300,
		    "long line: excerpt cut");
		ok(ex.matches.n == 1 && strstr(ex.matches.v[0].excerpt, "libcudnn.so.8") != NULL,
		    "long line: excerpt shows the message");
		explain_free(&ex);
		free(line);
	}
}

static void
sonames(void)
{
	struct strv sv = STRV_INIT;
	struct explain ex;

	ok(explain_is_soname("libcudart.so.11.0"), "soname: versioned");
	ok(explain_is_soname("libcuda.so"), "soname: unversioned");
	ok(!explain_is_soname("/usr/lib/libcuda.so.1"), "soname: a path is not");
	ok(!explain_is_soname("cudart64_110.dll"), "soname: a DLL is not");
	ok(!explain_is_soname("libsomething"), "soname: no .so");
	ok(!explain_is_soname("lib.so"), "soname: no stem");

	ex = run("Failed to initialize NVML: Driver/library version mismatch");
	explain_match_sonames(&ex.matches.v[0], &sv);
	is_int(sv.n, 2, "mismatch: two driver libraries to resolve");
	ok(strv_contains(&sv, "libnvidia-ml.so.1"), "mismatch: NVML");
	explain_free(&ex);
	strv_free(&sv);

	ex = run("Loaded runtime CuDNN library: 7.6.5 but source was compiled with: 8.1.0");
	explain_match_sonames(&ex.matches.v[0], &sv);
	ok(sv.n == 2 && strcmp(sv.v[0], "libcudnn.so.7") == 0 &&
	    strcmp(sv.v[1], "libcudnn.so.8") == 0, "cuDNN mismatch: both majors");
	explain_free(&ex);
	strv_free(&sv);

	ex = run("cudart64_110.dll not found");
	explain_match_sonames(&ex.matches.v[0], &sv);
	is_int(sv.n, 0, "a DLL is not resolved on Linux");
	explain_free(&ex);
	strv_free(&sv);

	ex = run("/lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.34' not found (required by ./a)");
	explain_match_sonames(&ex.matches.v[0], &sv);
	ok(sv.n == 1 && strcmp(sv.v[0], "libc.so.6") == 0, "version not found: the provider");
	explain_free(&ex);
	strv_free(&sv);
}

/* ----------------------------------------------------------- the rules */

struct world {
	struct facts		*facts;
	struct matrix		*m;
	struct lib_fact		 libs[4];
	size_t			 nlibs;
	struct strv		 defining[EXPLAIN_MATCH_MAX];
	struct findings		 out;
	struct explain		 ex;
};

static void
world_init(struct world *w, const char *driver)
{
	memset(w, 0, sizeof *w);
	w->facts = facts_new("/", false);
	w->m = matrix_embedded();
	if (driver != NULL)
		fact_set(&w->facts->driver.module_version, driver,
		    "/proc/driver/nvidia/version");
}

static struct lib_fact *
world_lib(struct world *w, const char *soname, const char *resolved,
    enum step_source via)
{
	struct lib_fact *l = &w->libs[w->nlibs++];

	l->soname = xstrdup(soname);
	l->resolved = resolved != NULL ? xstrdup(resolved) : NULL;
	l->via = via;
	return l;
}

static void
llp_entry(struct facts *f, const char *dir)
{
	struct path_var *pv = &f->env.ld_library_path;
	struct path_entry *e = VEC_PUSH(&pv->entries);

	pv->set = true;
	e->value = xstrdup(dir);
	e->exists = 1;
	e->is_dir = true;
	e->duplicate_of = -1;
	free(pv->raw);
	pv->raw = xstrdup(dir);
}

/* Recognises text and runs the rules on the world's facts. */
static void
world_explain(struct world *w, const char *text)
{
	struct diagnose_input in;
	struct explain_facts xf;

	explain_recognise(text, strlen(text), &w->ex);
	diagnose_annotate(w->facts, w->m);
	in.facts = w->facts;
	in.matrix = w->m;
	in.now = 0;
	in.matrix_checked = 0;
	xf.libs = w->libs;
	xf.nlibs = w->nlibs;
	xf.defining = w->defining;
	xf.where = NULL;
	rules_explain(&in, &w->ex, &xf, &w->out);
}

static void
world_free(struct world *w)
{
	findings_free(&w->out);
	explain_free(&w->ex);
	for (size_t i = 0; i < w->nlibs; i++)
		lib_fact_free(&w->libs[i]);
	for (size_t i = 0; i < EXPLAIN_MATCH_MAX; i++)
		strv_free(&w->defining[i]);
	facts_free(w->facts);
	matrix_free(w->m);
}

static bool
has_line(const struct strv *sv, const char *line)
{
	return sv != NULL && strv_contains(sv, line);
}

static bool
has_part(const struct strv *sv, const char *part)
{
	for (size_t i = 0; sv != NULL && i < sv->n; i++)
		if (strstr(sv->v[i], part) != NULL)
			return true;
	return false;
}

static const struct finding *
world_find(const struct world *w, enum finding_code code)
{
	return findings_find(&w->out, code);
}

static void
rules_not_found(void)
{
	struct world w;
	const struct finding *f;

	/* Driver 580 runs CUDA 11.8: install it, no driver needed. */
	world_init(&w, "580.65.06");
	world_lib(&w, "libcudart.so.11.0", NULL, STEP_NONE);
	world_explain(&w, "ImportError: libcudart.so.11.0: cannot open shared object file: No such file or directory");
	f = world_find(&w, FINDING_SONAME_NOT_FOUND);
	ok(f != NULL, "rules: a runtime found nowhere is SONAME_NOT_FOUND");
	ok(f != NULL && has_line(&f->fix, "pip install nvidia-cuda-runtime-cu11"),
	    "rules: the CUDA 11 runtime wheel");
	ok(f != NULL && has_line(&f->fix, "sudo apt-get install cuda-cudart-11-8"),
	    "rules: CUDA 11.8, the newest 11.x, from NVIDIA's repository");
	ok(f != NULL && !has_part(&f->fix, "nvidia-driver"), "rules: no driver needed");
	ok(f != NULL && strncmp(f->evidence.v[0], "the message (line 1): ", 22) == 0,
	    "rules: the message is the first evidence");
	world_free(&w);

	/* Driver 418 (CUDA 10.1) runs no 11.x: the driver comes first. */
	world_init(&w, "418.39");
	world_lib(&w, "libcudart.so.11.0", NULL, STEP_NONE);
	world_explain(&w, "Could not load dynamic library 'libcudart.so.11.0'; dlerror: libcudart.so.11.0: cannot open shared object file: No such file or directory");
	f = world_find(&w, FINDING_SONAME_NOT_FOUND);
	ok(f != NULL && has_line(&f->fix, "sudo apt-get install nvidia-driver-520"),
	    "rules: driver 418 gets the driver CUDA 11.8 needs (520)");
	ok(f != NULL && has_part(&f->fix, "is too old for CUDA 11.8"),
	    "rules: ... and says why");
	world_free(&w);

	/* Driver 470 (11.4, and 11.x by minor compat) and cuBLAS 12: short. */
	world_init(&w, "470.82.01");
	world_lib(&w, "libcublas.so.12", NULL, STEP_NONE);
	world_explain(&w, "libcublas.so.12: cannot open shared object file: No such file or directory");
	f = world_find(&w, FINDING_SONAME_NOT_FOUND);
	ok(f != NULL && has_line(&f->fix, "pip install nvidia-cublas-cu12"),
	    "rules: cuBLAS 12's wheel");
	ok(f != NULL && has_part(&f->fix, "sudo apt-get install nvidia-driver-"),
	    "rules: after a newer driver");
	world_free(&w);

	/* No driver known: the newest release of the soname. */
	world_init(&w, NULL);
	world_lib(&w, "libcudnn.so.9", NULL, STEP_NONE);
	world_explain(&w, "libcudnn.so.9: cannot open shared object file");
	f = world_find(&w, FINDING_SONAME_NOT_FOUND);
	ok(f != NULL && has_part(&f->fix, "pip install 'nvidia-cudnn-cu1"),
	    "rules: cuDNN 9 wheel without a driver");
	ok(f != NULL && has_part(&f->fix, "sudo apt-get install libcudnn9-cuda-"),
	    "rules: cuDNN 9's package names its CUDA major");
	world_free(&w);
}

static void
rules_version(void)
{
	struct world w;
	const struct finding *f;
	struct lib_fact *l;

	world_init(&w, "580.65.06");
	l = world_lib(&w, "libcublasLt.so.11", "/opt/old/libcublasLt.so.11", STEP_LD_LIBRARY_PATH);
	/* An older build: the version node, without the symbol. */
	strv_push(&l->elf_verdefs, "libcublasLt.so.11");
	llp_entry(w.facts, "/opt/old");
	strv_push(&w.defining[0], "/usr/local/cuda-11.8/lib64/libcublasLt.so.11");
	world_explain(&w, "/x/libcublas.so.11: undefined symbol: cublasLtGetStatusString, version libcublasLt.so.11");
	f = world_find(&w, FINDING_SONAME_VERSION_MISMATCH);
	ok(f != NULL, "rules: a missing version is SONAME_VERSION_MISMATCH");
	ok(f != NULL && has_line(&f->fix,
	    "export LD_LIBRARY_PATH=/usr/local/cuda-11.8/lib64\"${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}\""),
	    "rules: the copy that defines it first");
	ok(f != NULL && has_line(&f->fix, "unset LD_LIBRARY_PATH"),
	    "rules: or without the shadowing directory");
	ok(f != NULL && has_part(&f->evidence, "/opt/old/libcublasLt.so.11 defines libcublasLt.so.11"),
	    "rules: the versions the loaded copy has");
	world_free(&w);

	/* No copy defines it: install the library for this driver. */
	world_init(&w, "580.65.06");
	l = world_lib(&w, "libcublasLt.so.12", "/usr/lib/x86_64-linux-gnu/libcublasLt.so.12", STEP_DEFAULT);
	world_explain(&w, "/x/libtorch_cuda.so: undefined symbol: cublasLtMatmul, version libcublasLt.so.12");
	f = world_find(&w, FINDING_SONAME_VERSION_MISMATCH);
	ok(f != NULL && has_line(&f->fix, "pip install nvidia-cublas-cu12"),
	    "rules: no good copy: the wheel that provides it");
	world_free(&w);

	world_init(&w, NULL);
	world_lib(&w, "libstdc++.so.6", "/usr/lib/x86_64-linux-gnu/libstdc++.so.6", STEP_DEFAULT);
	world_explain(&w, "/usr/lib/x86_64-linux-gnu/libstdc++.so.6: version `GLIBCXX_3.4.30' not found (required by /env/lib/libtorch_cpu.so)");
	f = world_find(&w, FINDING_SONAME_VERSION_MISMATCH);
	ok(f != NULL && has_line(&f->fix, "conda install -c conda-forge libstdcxx-ng"),
	    "rules: GLIBCXX: a newer libstdc++");
	ok(f != NULL && has_line(&f->fix, "sudo apt-get install --only-upgrade libstdc++6"),
	    "rules: GLIBCXX: or the system's, through the catalogue");
	world_free(&w);

	/* The 64-bit driver library: the driver's own branch where Ubuntu
	 * published it (550), words where the catalogue has no package of
	 * the branch (555 was a new-feature branch Ubuntu skipped). */
	world_init(&w, "550.54.15");
	world_explain(&w, "./app: error while loading shared libraries: libcuda.so.1: wrong ELF class: ELFCLASS32");
	f = world_find(&w, FINDING_BROKEN_LIBRARY);
	ok(f != NULL && has_line(&f->fix, "sudo apt-get install libnvidia-compute-550"),
	    "rules: wrong class: libnvidia-compute of the driver's branch");
	world_free(&w);
	world_init(&w, "555.42.02");
	world_explain(&w, "./app: error while loading shared libraries: libcuda.so.1: wrong ELF class: ELFCLASS32");
	f = world_find(&w, FINDING_BROKEN_LIBRARY);
	ok(f != NULL && !has_line(&f->fix, "sudo apt-get install libnvidia-compute-555") &&
	    has_part(&f->fix, "Ubuntu published no libnvidia-compute-555 that cudawiz knows"),
	    "rules: wrong class: no package of branch 555 is known: words, not a command");
	world_free(&w);
}

static void
rules_driver(void)
{
	struct world w;
	const struct finding *f;

	world_init(&w, "470.82.01");
	world_explain(&w, "RuntimeError: The NVIDIA driver on your system is too old (found version 11040).");
	f = world_find(&w, FINDING_DRIVER_TOO_OLD);
	ok(f != NULL, "rules: PyTorch's too-old driver is DRIVER_TOO_OLD");
	ok(f != NULL && has_part(&f->evidence, "driver in use: 470.82.01"),
	    "rules: evidence has the driver");
	ok(f != NULL && has_part(&f->evidence, "supports CUDA 11.4"),
	    "rules: and what the message says it supports");
	ok(f != NULL && has_line(&f->fix, "pip install nvidia-cuda-runtime-cu11"),
	    "rules: or a runtime it runs");
	world_free(&w);

	world_init(&w, "535.54.03");
	world_explain(&w, "kernel version 535.54.3 does not match DSO version 535.104.5 -- cannot find working devices");
	f = world_find(&w, FINDING_DRIVER_LIBRARY_MISMATCH);
	ok(f != NULL && has_line(&f->fix, "sudo reboot"), "rules: mismatch: reboot");
	world_free(&w);

	world_init(&w, NULL);
	world_explain(&w, "RuntimeError: CUDA error: out of memory\nCUDA out of memory. Tried to allocate 2.00 GiB");
	/* One finding that says it is not a setup fault (issue 19). */
	is_int(w.out.n, 1, "rules: out of memory is one finding, not one about this machine");
	ok(world_find(&w, FINDING_GPU_OUT_OF_MEMORY) != NULL &&
	    has_line(&world_find(&w, FINDING_GPU_OUT_OF_MEMORY)->fix,
	    "export XLA_PYTHON_CLIENT_PREALLOCATE=false"),
	    "rules: out of memory: not a setup fault, XLA's preallocation off");
	ok(w.ex.matches.n == 1 && w.ex.matches.v[0].meaning != NULL,
	    "rules: ... its meaning is there");
	world_free(&w);
}

static void
rules_cudnn(void)
{
	struct world w;
	const struct finding *f;
	struct cudnn_fact *c;

	world_init(&w, "580.65.06");
	c = VEC_PUSH(&w.facts->cudnn);
	c->lib_dir = xstrdup("/usr/lib/x86_64-linux-gnu");
	c->where = xstrdup("system");
	c->soname = xstrdup("libcudnn.so.8");
	fact_set(&c->version, "8.0.5", "/usr/include/cudnn_version.h");
	c = VEC_PUSH(&w.facts->cudnn);
	c->lib_dir = xstrdup("/opt/cudnn/lib");
	c->where = xstrdup("system");
	c->soname = xstrdup("libcudnn.so.8");
	fact_set(&c->version, "8.9.7", "/opt/cudnn/include/cudnn_version.h");
	world_explain(&w, "Loaded runtime CuDNN library: 8.0.5 but source was compiled with: 8.1.0.");
	f = world_find(&w, FINDING_FRAMEWORK_CUDA_MISMATCH);
	ok(f != NULL && has_part(&f->fix, "export LD_LIBRARY_PATH=/opt/cudnn/lib\""),
	    "rules: cuDNN mismatch: the installed 8.9.7 first");
	world_free(&w);

	world_init(&w, NULL);
	world_explain(&w, "CUDNN_STATUS_EXECUTION_FAILED_CUBLAS\nCUDNN_STATUS_LICENSE_ERROR\nCUDNN_STATUS_SOMETHING_NEW");
	is_int(w.out.n, 3, "rules: one CUDNN_FAILED per status");
	for (size_t i = 0; i < w.out.n; i++)
		ok(w.out.v[i].code == FINDING_CUDNN_FAILED && w.out.v[i].fix.n > 0,
		    "rules: CUDNN_FAILED %zu has a fix", i);
	world_free(&w);
}

/* Every finding any message gives has a fix and starts with its message. */
static void
rules_every_fix(void)
{
	struct world w;

	world_init(&w, "525.60.13");
	world_lib(&w, "libcudart.so.12", NULL, STEP_NONE);
	world_lib(&w, "libcuda.so.1", "/usr/lib/x86_64-linux-gnu/libcuda.so.1", STEP_DEFAULT);
	world_lib(&w, "libnvidia-ml.so.1", "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1", STEP_DEFAULT);
	world_explain(&w,
	    "libcudart.so.12: cannot open shared object file\n"
	    "cudart64_12.dll not found\n"
	    "CUDA driver version is insufficient for CUDA runtime version\n"
	    "Failed to initialize NVML: Driver/library version mismatch\n"
	    "CUDA_ERROR_STUB_LIBRARY\n"
	    "no kernel image is available for execution on the device\n"
	    "the provided PTX was compiled with an unsupported toolchain\n"
	    "forward compatibility was attempted on non supported HW\n"
	    "Loaded runtime CuDNN library: 8.0.5 but source was compiled with: 8.1.0\n"
	    "CUDNN_STATUS_INTERNAL_ERROR\n"
	    "/x/a.so: undefined symbol: foo\n"
	    "x.so: wrong ELF class: ELFCLASS32\n");
	ok(w.out.n >= 10, "rules: a long paste gives many findings (%zu)", w.out.n);
	for (size_t i = 0; i < w.out.n; i++) {
		const struct finding *f = &w.out.v[i];
		size_t cmds = 0;

		for (size_t k = 0; k < f->fix.n; k++)
			if (f->fix.v[k][0] != '#')
				cmds++;
		ok(f->fix.n > 0 && (cmds > 0 || f->code == FINDING_GPU_ARCH_UNSUPPORTED ||
		    f->code == FINDING_SONAME_NOT_FOUND),
		    "rules: %s has a fix", finding_code_name(f->code));
		ok(f->evidence.n > 0 && strncmp(f->evidence.v[0], "the message (line ", 18) == 0,
		    "rules: %s starts with its message", finding_code_name(f->code));
	}
	world_free(&w);
}

int
main(void)
{
	table_cases();
	details();
	traceback();
	nested();
	unrecognised();
	robustness();
	sonames();
	rules_not_found();
	rules_version();
	rules_driver();
	rules_cudnn();
	rules_every_fix();
	for (int k = 0; k < EXPLAIN_KIND_COUNT; k++)
		ok(explain_kind_name(k)[0] != '\0' && explain_kind_title(k)[0] != '\0',
		    "kind %d has a name and a title", k);
	return done_testing();
}
