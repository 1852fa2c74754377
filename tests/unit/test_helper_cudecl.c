/* The helper's hand declarations (src/helper/cudecl.h) against NVIDIA's
 * own headers: every function type, constant and error code it relies on
 * must be the same, or the helper would call a vendor function with the
 * wrong arguments and misread what it returns.
 *
 * Compiled by tests/cli/helper-cudecl.sh, only where the headers exist
 * (never by make: the build must not need CUDA). Almost everything here
 * is a compile-time assertion; running it only reports what was proved.
 * HAVE_CUDNN_H says whether cudnn.h is there too. */
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime_api.h>
#if HAVE_CUDNN_H
#include <cudnn.h>
#endif

#include "helper/cudecl.h"
#include "lib/tap.h"

#define SAME_TYPE(a, b) __builtin_types_compatible_p(a, b)
#define FN_IS(cw, real) \
	_Static_assert(SAME_TYPE(cw, real), #cw " is not " #real)
#define CONST_IS(cw, real) \
	_Static_assert((long long)(cw) == (long long)(real), #cw " != " #real)

/* --------------------------------------------------------- driver API */

/* Each binding is checked against the versioned typedef of the symbol
 * the helper looks up first (driver.c), not against the name cuda.h maps
 * the plain name to: in CUDA 13 cuCtxCreate is cuCtxCreate_v4, with
 * another argument list, which the helper never binds. */
FN_IS(cw_cuInit_fn, PFN_cuInit_v2000);
FN_IS(cw_cuDriverGetVersion_fn, PFN_cuDriverGetVersion_v2020);
FN_IS(cw_cuGetErrorName_fn, PFN_cuGetErrorName_v6000);
FN_IS(cw_cuGetErrorString_fn, PFN_cuGetErrorString_v6000);
FN_IS(cw_cuDeviceGetCount_fn, PFN_cuDeviceGetCount_v2000);
FN_IS(cw_cuDeviceGet_fn, PFN_cuDeviceGet_v2000);
FN_IS(cw_cuDeviceGetName_fn, PFN_cuDeviceGetName_v2000);
FN_IS(cw_cuDeviceGetAttribute_fn, PFN_cuDeviceGetAttribute_v2000);
FN_IS(cw_cuDeviceTotalMem_fn, PFN_cuDeviceTotalMem_v3020);
FN_IS(cw_cuDeviceGetPCIBusId_fn, PFN_cuDeviceGetPCIBusId_v4010);
FN_IS(cw_cuDeviceGetUuid_fn, PFN_cuDeviceGetUuid_v11040);
FN_IS(cw_cuDeviceGetUuid_fn, PFN_cuDeviceGetUuid_v9020);
FN_IS(cw_cuCtxCreate_fn, PFN_cuCtxCreate_v3020);
FN_IS(cw_cuCtxDestroy_fn, PFN_cuCtxDestroy_v4000);
FN_IS(cw_cuCtxSynchronize_fn, PFN_cuCtxSynchronize_v2000);
FN_IS(cw_cuMemGetInfo_fn, PFN_cuMemGetInfo_v3020);
FN_IS(cw_cuMemAlloc_fn, PFN_cuMemAlloc_v3020);
FN_IS(cw_cuMemFree_fn, PFN_cuMemFree_v3020);
FN_IS(cw_cuMemHostAlloc_fn, PFN_cuMemHostAlloc_v2020);
FN_IS(cw_cuMemFreeHost_fn, PFN_cuMemFreeHost_v2000);
FN_IS(cw_cuMemcpyHtoD_fn, PFN_cuMemcpyHtoD_v3020);
FN_IS(cw_cuMemcpyDtoH_fn, PFN_cuMemcpyDtoH_v3020);
FN_IS(cw_cuMemcpyDtoD_fn, PFN_cuMemcpyDtoD_v3020);
FN_IS(cw_cuModuleLoadDataEx_fn, PFN_cuModuleLoadDataEx_v2010);
FN_IS(cw_cuModuleGetFunction_fn, PFN_cuModuleGetFunction_v2000);
FN_IS(cw_cuModuleUnload_fn, PFN_cuModuleUnload_v2000);
FN_IS(cw_cuLaunchKernel_fn, PFN_cuLaunchKernel_v4000);

_Static_assert(SAME_TYPE(cw_CUresult, CUresult), "CUresult");
_Static_assert(SAME_TYPE(cw_CUdeviceptr, CUdeviceptr), "CUdeviceptr");
_Static_assert(SAME_TYPE(cw_CUcontext, CUcontext), "CUcontext");
_Static_assert(SAME_TYPE(cw_CUmodule, CUmodule), "CUmodule");
_Static_assert(SAME_TYPE(cw_CUfunction, CUfunction), "CUfunction");
_Static_assert(SAME_TYPE(cw_CUuuid, CUuuid), "CUuuid");
_Static_assert(sizeof(cw_CUuuid) == 16, "CUuuid is 16 bytes");

CONST_IS(CW_CUDA_SUCCESS, CUDA_SUCCESS);
CONST_IS(CW_CUDA_ERROR_INVALID_VALUE, CUDA_ERROR_INVALID_VALUE);
CONST_IS(CW_CUDA_ERROR_NOT_FOUND, CUDA_ERROR_NOT_FOUND);
CONST_IS(CW_CU_DEVICE_ATTRIBUTE_CLOCK_RATE, CU_DEVICE_ATTRIBUTE_CLOCK_RATE);
CONST_IS(CW_CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
    CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
CONST_IS(CW_CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE,
    CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE);
CONST_IS(CW_CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH,
    CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
CONST_IS(CW_CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
CONST_IS(CW_CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
CONST_IS(CW_CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER);
CONST_IS(CW_CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
    CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES);

#define CHECK_CU(v, n) CONST_IS(v, n);
CW_CURESULT_LIST(CHECK_CU)

/* -------------------------------------------------------- runtime API */

FN_IS(cw_cudaRuntimeGetVersion_fn, __typeof__(&cudaRuntimeGetVersion));
FN_IS(cw_cudaDriverGetVersion_fn, __typeof__(&cudaDriverGetVersion));
FN_IS(cw_cudaGetDeviceCount_fn, __typeof__(&cudaGetDeviceCount));
FN_IS(cw_cudaSetDevice_fn, __typeof__(&cudaSetDevice));
FN_IS(cw_cudaMalloc_fn, __typeof__(&cudaMalloc));
FN_IS(cw_cudaFree_fn, __typeof__(&cudaFree));
FN_IS(cw_cudaMemcpy_fn, __typeof__(&cudaMemcpy));
FN_IS(cw_cudaDeviceSynchronize_fn, __typeof__(&cudaDeviceSynchronize));
FN_IS(cw_cudaGetErrorName_fn, __typeof__(&cudaGetErrorName));
FN_IS(cw_cudaGetErrorString_fn, __typeof__(&cudaGetErrorString));

_Static_assert(SAME_TYPE(cw_cudaError, cudaError_t), "cudaError_t");
CONST_IS(CW_cudaSuccess, cudaSuccess);
CONST_IS(CW_cudaMemcpyHostToDevice, cudaMemcpyHostToDevice);
CONST_IS(CW_cudaMemcpyDeviceToHost, cudaMemcpyDeviceToHost);

#define CHECK_CUDART(v, n) CONST_IS(v, n);
CW_CUDAERROR_LIST(CHECK_CUDART)

/* -------------------------------------------------------------- cuDNN */

#if HAVE_CUDNN_H
FN_IS(cw_cudnnGetVersion_fn, __typeof__(&cudnnGetVersion));
FN_IS(cw_cudnnGetCudartVersion_fn, __typeof__(&cudnnGetCudartVersion));
FN_IS(cw_cudnnGetErrorString_fn, __typeof__(&cudnnGetErrorString));
FN_IS(cw_cudnnCreate_fn, __typeof__(&cudnnCreate));
FN_IS(cw_cudnnDestroy_fn, __typeof__(&cudnnDestroy));
FN_IS(cw_cudnnCreateTensorDescriptor_fn,
    __typeof__(&cudnnCreateTensorDescriptor));
FN_IS(cw_cudnnSetTensor4dDescriptor_fn, __typeof__(&cudnnSetTensor4dDescriptor));
FN_IS(cw_cudnnDestroyTensorDescriptor_fn,
    __typeof__(&cudnnDestroyTensorDescriptor));
FN_IS(cw_cudnnCreateFilterDescriptor_fn,
    __typeof__(&cudnnCreateFilterDescriptor));
FN_IS(cw_cudnnSetFilter4dDescriptor_fn, __typeof__(&cudnnSetFilter4dDescriptor));
FN_IS(cw_cudnnDestroyFilterDescriptor_fn,
    __typeof__(&cudnnDestroyFilterDescriptor));
FN_IS(cw_cudnnCreateConvolutionDescriptor_fn,
    __typeof__(&cudnnCreateConvolutionDescriptor));
FN_IS(cw_cudnnSetConvolution2dDescriptor_fn,
    __typeof__(&cudnnSetConvolution2dDescriptor));
FN_IS(cw_cudnnSetConvolutionMathType_fn,
    __typeof__(&cudnnSetConvolutionMathType));
FN_IS(cw_cudnnGetConvolution2dForwardOutputDim_fn,
    __typeof__(&cudnnGetConvolution2dForwardOutputDim));
FN_IS(cw_cudnnDestroyConvolutionDescriptor_fn,
    __typeof__(&cudnnDestroyConvolutionDescriptor));
FN_IS(cw_cudnnGetConvolutionForwardWorkspaceSize_fn,
    __typeof__(&cudnnGetConvolutionForwardWorkspaceSize));
FN_IS(cw_cudnnConvolutionForward_fn, __typeof__(&cudnnConvolutionForward));
#if CUDNN_MAJOR >= 9
FN_IS(cw_cudnnGetLastErrorString_fn, __typeof__(&cudnnGetLastErrorString));
#endif

_Static_assert(SAME_TYPE(cw_cudnnStatus, cudnnStatus_t), "cudnnStatus_t");
_Static_assert(SAME_TYPE(cw_cudnnHandle, cudnnHandle_t), "cudnnHandle_t");
CONST_IS(CW_CUDNN_STATUS_SUCCESS, CUDNN_STATUS_SUCCESS);
CONST_IS(CW_CUDNN_TENSOR_NCHW, CUDNN_TENSOR_NCHW);
CONST_IS(CW_CUDNN_DATA_FLOAT, CUDNN_DATA_FLOAT);
CONST_IS(CW_CUDNN_CROSS_CORRELATION, CUDNN_CROSS_CORRELATION);
CONST_IS(CW_CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM,
    CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM);
CONST_IS(CW_CUDNN_DEFAULT_MATH, CUDNN_DEFAULT_MATH);
CONST_IS(CW_CUDNN_FMA_MATH, CUDNN_FMA_MATH);

/* The helper's table is cuDNN 9's numbering; an older cudnn.h has the
 * other one (CW_CUDNNSTATUS_LIST_V8). */
#if CUDNN_MAJOR >= 9
#define CHECK_CUDNN(v, n) CONST_IS(v, n);
CW_CUDNNSTATUS_LIST(CHECK_CUDNN)
#else
#define CHECK_CUDNN(v, n) CONST_IS(v, n);
CW_CUDNNSTATUS_LIST_V8(CHECK_CUDNN)
#endif
#endif

int
main(void)
{
	int n;

	(void)tap_is_str;
	(void)tap_is_int;
	/* Reaching here means every assertion above held at compile time. */
	ok(1, "driver API: function types, handles and constants match cuda.h "
	    "(CUDA_VERSION %d)", CUDA_VERSION);
#define COUNT(v, name) n++;
	n = 0;
	CW_CURESULT_LIST(COUNT)
	ok(n > 0, "%d CUresult names match cuda.h", n);
	ok(1, "runtime API: function types and constants match "
	    "cuda_runtime_api.h (CUDART_VERSION %d)", CUDART_VERSION);
	n = 0;
	CW_CUDAERROR_LIST(COUNT)
	ok(n > 0, "%d cudaError_t names match driver_types.h", n);
#if HAVE_CUDNN_H
	n = 0;
	CW_CUDNNSTATUS_LIST(COUNT)
	ok(1, "cuDNN: function types, handles and constants match cudnn.h "
	    "(CUDNN_VERSION %d)", CUDNN_VERSION);
	ok(n > 0, "%d cudnnStatus_t names match cudnn.h", n);
#else
	printf("ok %d - cuDNN declarations # SKIP no cudnn.h\n", ++tap_count);
	printf("ok %d - cudnnStatus_t names # SKIP no cudnn.h\n", ++tap_count);
#endif
	return done_testing();
}
