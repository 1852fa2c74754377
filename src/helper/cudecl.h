/* The helper's own declarations of the CUDA driver API, the CUDA runtime
 * API and cuDNN: the few types, constants and function types it uses.
 *
 * The helper must build where no CUDA header exists, so it cannot include
 * cuda.h; every name here is prefixed (cw_, CW_) so that a test can
 * include this file next to the real headers and prove, with static
 * assertions, that each function type and constant is the same
 * (tests/unit/test_helper_cudecl.c).
 *
 * The opaque handles use NVIDIA's own struct tags: an incomplete struct
 * with the same tag is the same type, which makes the function types
 * exactly compatible with the real prototypes. The error enums are
 * declared as unsigned int because that is the type GCC and Clang give
 * an enum without negative values, so the return types match too.
 *
 * Each function type is that of the name the helper binds first
 * (cuMemAlloc is cuMemAlloc_v2's type). Where the unversioned symbol has
 * another ABI (the 32-bit CUdeviceptr functions of CUDA < 3.2), the
 * helper never falls back to it: see the symbol tables in driver.c. */
#ifndef CUDAWIZ_HELPER_CUDECL_H
#define CUDAWIZ_HELPER_CUDECL_H

#include <stddef.h>

/* ------------------------------------------------------------ driver API */

typedef unsigned int cw_CUresult;
typedef int cw_CUdevice;
typedef unsigned long long cw_CUdeviceptr;
typedef struct CUctx_st *cw_CUcontext;
typedef struct CUmod_st *cw_CUmodule;
typedef struct CUfunc_st *cw_CUfunction;
typedef struct CUstream_st *cw_CUstream;

/* cuda.h and driver_types.h define the struct under this guard; a file
 * that includes them next to this one must see one definition. */
#ifndef CU_UUID_HAS_BEEN_DEFINED
#define CU_UUID_HAS_BEEN_DEFINED
struct CUuuid_st {
	char bytes[16];
};
#endif
typedef struct CUuuid_st cw_CUuuid;

#define CW_CUDA_SUCCESS				0
#define CW_CUDA_ERROR_INVALID_VALUE		1
#define CW_CUDA_ERROR_NOT_FOUND			500

/* CUdevice_attribute */
#define CW_CU_DEVICE_ATTRIBUTE_CLOCK_RATE			13
#define CW_CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT		16
#define CW_CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE		36
#define CW_CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH		37
#define CW_CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR		75
#define CW_CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR		76

/* CUjit_option */
#define CW_CU_JIT_ERROR_LOG_BUFFER			5
#define CW_CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES		6

typedef cw_CUresult (*cw_cuInit_fn)(unsigned int flags);
typedef cw_CUresult (*cw_cuDriverGetVersion_fn)(int *version);
typedef cw_CUresult (*cw_cuGetErrorName_fn)(cw_CUresult error,
    const char **str);
typedef cw_CUresult (*cw_cuGetErrorString_fn)(cw_CUresult error,
    const char **str);
typedef cw_CUresult (*cw_cuDeviceGetCount_fn)(int *count);
typedef cw_CUresult (*cw_cuDeviceGet_fn)(cw_CUdevice *device, int ordinal);
typedef cw_CUresult (*cw_cuDeviceGetName_fn)(char *name, int len,
    cw_CUdevice dev);
typedef cw_CUresult (*cw_cuDeviceGetAttribute_fn)(int *value,
    unsigned int attrib, cw_CUdevice dev);
typedef cw_CUresult (*cw_cuDeviceTotalMem_fn)(size_t *bytes, cw_CUdevice dev);
typedef cw_CUresult (*cw_cuDeviceGetPCIBusId_fn)(char *busid, int len,
    cw_CUdevice dev);
typedef cw_CUresult (*cw_cuDeviceGetUuid_fn)(cw_CUuuid *uuid, cw_CUdevice dev);
typedef cw_CUresult (*cw_cuCtxCreate_fn)(cw_CUcontext *ctx,
    unsigned int flags, cw_CUdevice dev);
typedef cw_CUresult (*cw_cuCtxDestroy_fn)(cw_CUcontext ctx);
typedef cw_CUresult (*cw_cuCtxSynchronize_fn)(void);
typedef cw_CUresult (*cw_cuMemGetInfo_fn)(size_t *free, size_t *total);
typedef cw_CUresult (*cw_cuMemAlloc_fn)(cw_CUdeviceptr *dptr, size_t bytes);
typedef cw_CUresult (*cw_cuMemFree_fn)(cw_CUdeviceptr dptr);
typedef cw_CUresult (*cw_cuMemHostAlloc_fn)(void **pp, size_t bytes,
    unsigned int flags);
typedef cw_CUresult (*cw_cuMemFreeHost_fn)(void *p);
typedef cw_CUresult (*cw_cuMemcpyHtoD_fn)(cw_CUdeviceptr dst, const void *src,
    size_t bytes);
typedef cw_CUresult (*cw_cuMemcpyDtoH_fn)(void *dst, cw_CUdeviceptr src,
    size_t bytes);
typedef cw_CUresult (*cw_cuMemcpyDtoD_fn)(cw_CUdeviceptr dst,
    cw_CUdeviceptr src, size_t bytes);
typedef cw_CUresult (*cw_cuModuleLoadDataEx_fn)(cw_CUmodule *module,
    const void *image, unsigned int nopts, unsigned int *opts,
    void **values);
typedef cw_CUresult (*cw_cuModuleGetFunction_fn)(cw_CUfunction *func,
    cw_CUmodule module, const char *name);
typedef cw_CUresult (*cw_cuModuleUnload_fn)(cw_CUmodule module);
typedef cw_CUresult (*cw_cuLaunchKernel_fn)(cw_CUfunction f,
    unsigned int gx, unsigned int gy, unsigned int gz,
    unsigned int bx, unsigned int by, unsigned int bz,
    unsigned int shared, cw_CUstream stream, void **params, void **extra);

/* ----------------------------------------------------------- runtime API */

typedef unsigned int cw_cudaError;

#define CW_cudaSuccess			0
#define CW_cudaMemcpyHostToDevice	1
#define CW_cudaMemcpyDeviceToHost	2

typedef cw_cudaError (*cw_cudaRuntimeGetVersion_fn)(int *version);
typedef cw_cudaError (*cw_cudaDriverGetVersion_fn)(int *version);
typedef cw_cudaError (*cw_cudaGetDeviceCount_fn)(int *count);
typedef cw_cudaError (*cw_cudaSetDevice_fn)(int device);
typedef cw_cudaError (*cw_cudaMalloc_fn)(void **ptr, size_t bytes);
typedef cw_cudaError (*cw_cudaFree_fn)(void *ptr);
typedef cw_cudaError (*cw_cudaMemcpy_fn)(void *dst, const void *src,
    size_t bytes, unsigned int kind);
typedef cw_cudaError (*cw_cudaDeviceSynchronize_fn)(void);
typedef const char *(*cw_cudaGetErrorName_fn)(cw_cudaError error);
typedef const char *(*cw_cudaGetErrorString_fn)(cw_cudaError error);

/* ------------------------------------------------------------------ cuDNN */

typedef unsigned int cw_cudnnStatus;
typedef struct cudnnContext *cw_cudnnHandle;
typedef struct cudnnTensorStruct *cw_cudnnTensorDescriptor;
typedef struct cudnnFilterStruct *cw_cudnnFilterDescriptor;
typedef struct cudnnConvolutionStruct *cw_cudnnConvolutionDescriptor;

#define CW_CUDNN_STATUS_SUCCESS			0
#define CW_CUDNN_TENSOR_NCHW			0
#define CW_CUDNN_DATA_FLOAT			0
#define CW_CUDNN_CROSS_CORRELATION		1
#define CW_CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM	0
#define CW_CUDNN_DEFAULT_MATH			0
/* cuDNN >= 8: FMA kernels only, never TF32 tensor cores. */
#define CW_CUDNN_FMA_MATH			3

typedef size_t (*cw_cudnnGetVersion_fn)(void);
typedef size_t (*cw_cudnnGetCudartVersion_fn)(void);
typedef const char *(*cw_cudnnGetErrorString_fn)(cw_cudnnStatus status);
typedef cw_cudnnStatus (*cw_cudnnCreate_fn)(cw_cudnnHandle *handle);
typedef cw_cudnnStatus (*cw_cudnnDestroy_fn)(cw_cudnnHandle handle);
typedef cw_cudnnStatus (*cw_cudnnCreateTensorDescriptor_fn)(
    cw_cudnnTensorDescriptor *desc);
typedef cw_cudnnStatus (*cw_cudnnSetTensor4dDescriptor_fn)(
    cw_cudnnTensorDescriptor desc, unsigned int format, unsigned int type,
    int n, int c, int h, int w);
typedef cw_cudnnStatus (*cw_cudnnDestroyTensorDescriptor_fn)(
    cw_cudnnTensorDescriptor desc);
typedef cw_cudnnStatus (*cw_cudnnCreateFilterDescriptor_fn)(
    cw_cudnnFilterDescriptor *desc);
typedef cw_cudnnStatus (*cw_cudnnSetFilter4dDescriptor_fn)(
    cw_cudnnFilterDescriptor desc, unsigned int type, unsigned int format,
    int k, int c, int h, int w);
typedef cw_cudnnStatus (*cw_cudnnDestroyFilterDescriptor_fn)(
    cw_cudnnFilterDescriptor desc);
typedef cw_cudnnStatus (*cw_cudnnCreateConvolutionDescriptor_fn)(
    cw_cudnnConvolutionDescriptor *desc);
typedef cw_cudnnStatus (*cw_cudnnSetConvolution2dDescriptor_fn)(
    cw_cudnnConvolutionDescriptor desc, int pad_h, int pad_w, int u, int v,
    int dilation_h, int dilation_w, unsigned int mode,
    unsigned int compute_type);
typedef cw_cudnnStatus (*cw_cudnnSetConvolutionMathType_fn)(
    cw_cudnnConvolutionDescriptor desc, unsigned int math);
typedef cw_cudnnStatus (*cw_cudnnGetConvolution2dForwardOutputDim_fn)(
    cw_cudnnConvolutionDescriptor conv, cw_cudnnTensorDescriptor x,
    cw_cudnnFilterDescriptor w, int *n, int *c, int *h, int *wd);
typedef cw_cudnnStatus (*cw_cudnnDestroyConvolutionDescriptor_fn)(
    cw_cudnnConvolutionDescriptor desc);
typedef cw_cudnnStatus (*cw_cudnnGetConvolutionForwardWorkspaceSize_fn)(
    cw_cudnnHandle handle, cw_cudnnTensorDescriptor x,
    cw_cudnnFilterDescriptor w, cw_cudnnConvolutionDescriptor conv,
    cw_cudnnTensorDescriptor y, unsigned int algo, size_t *bytes);
typedef void (*cw_cudnnGetLastErrorString_fn)(char *message, size_t size);
typedef cw_cudnnStatus (*cw_cudnnConvolutionForward_fn)(cw_cudnnHandle handle,
    const void *alpha, cw_cudnnTensorDescriptor xdesc, const void *x,
    cw_cudnnFilterDescriptor wdesc, const void *w,
    cw_cudnnConvolutionDescriptor conv, unsigned int algo, void *workspace,
    size_t workspace_bytes, const void *beta, cw_cudnnTensorDescriptor ydesc,
    void *y);

/* ------------------------------------------------------------ error names */

/* Every code of CUresult, cudaError_t and cudnnStatus_t as CUDA 13.0 and
 * cuDNN 9 declare them, for libraries without a name function (or whose
 * name function fails). X(value, NAME); the cudecl test checks each pair
 * against the real headers. */
#define CW_CURESULT_LIST(X) \
	X(0, CUDA_SUCCESS) \
	X(1, CUDA_ERROR_INVALID_VALUE) \
	X(2, CUDA_ERROR_OUT_OF_MEMORY) \
	X(3, CUDA_ERROR_NOT_INITIALIZED) \
	X(4, CUDA_ERROR_DEINITIALIZED) \
	X(5, CUDA_ERROR_PROFILER_DISABLED) \
	X(6, CUDA_ERROR_PROFILER_NOT_INITIALIZED) \
	X(7, CUDA_ERROR_PROFILER_ALREADY_STARTED) \
	X(8, CUDA_ERROR_PROFILER_ALREADY_STOPPED) \
	X(34, CUDA_ERROR_STUB_LIBRARY) \
	X(36, CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER) \
	X(46, CUDA_ERROR_DEVICE_UNAVAILABLE) \
	X(100, CUDA_ERROR_NO_DEVICE) \
	X(101, CUDA_ERROR_INVALID_DEVICE) \
	X(102, CUDA_ERROR_DEVICE_NOT_LICENSED) \
	X(200, CUDA_ERROR_INVALID_IMAGE) \
	X(201, CUDA_ERROR_INVALID_CONTEXT) \
	X(202, CUDA_ERROR_CONTEXT_ALREADY_CURRENT) \
	X(205, CUDA_ERROR_MAP_FAILED) \
	X(206, CUDA_ERROR_UNMAP_FAILED) \
	X(207, CUDA_ERROR_ARRAY_IS_MAPPED) \
	X(208, CUDA_ERROR_ALREADY_MAPPED) \
	X(209, CUDA_ERROR_NO_BINARY_FOR_GPU) \
	X(210, CUDA_ERROR_ALREADY_ACQUIRED) \
	X(211, CUDA_ERROR_NOT_MAPPED) \
	X(212, CUDA_ERROR_NOT_MAPPED_AS_ARRAY) \
	X(213, CUDA_ERROR_NOT_MAPPED_AS_POINTER) \
	X(214, CUDA_ERROR_ECC_UNCORRECTABLE) \
	X(215, CUDA_ERROR_UNSUPPORTED_LIMIT) \
	X(216, CUDA_ERROR_CONTEXT_ALREADY_IN_USE) \
	X(217, CUDA_ERROR_PEER_ACCESS_UNSUPPORTED) \
	X(218, CUDA_ERROR_INVALID_PTX) \
	X(219, CUDA_ERROR_INVALID_GRAPHICS_CONTEXT) \
	X(220, CUDA_ERROR_NVLINK_UNCORRECTABLE) \
	X(221, CUDA_ERROR_JIT_COMPILER_NOT_FOUND) \
	X(222, CUDA_ERROR_UNSUPPORTED_PTX_VERSION) \
	X(223, CUDA_ERROR_JIT_COMPILATION_DISABLED) \
	X(224, CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY) \
	X(225, CUDA_ERROR_UNSUPPORTED_DEVSIDE_SYNC) \
	X(226, CUDA_ERROR_CONTAINED) \
	X(300, CUDA_ERROR_INVALID_SOURCE) \
	X(301, CUDA_ERROR_FILE_NOT_FOUND) \
	X(302, CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND) \
	X(303, CUDA_ERROR_SHARED_OBJECT_INIT_FAILED) \
	X(304, CUDA_ERROR_OPERATING_SYSTEM) \
	X(400, CUDA_ERROR_INVALID_HANDLE) \
	X(401, CUDA_ERROR_ILLEGAL_STATE) \
	X(402, CUDA_ERROR_LOSSY_QUERY) \
	X(500, CUDA_ERROR_NOT_FOUND) \
	X(600, CUDA_ERROR_NOT_READY) \
	X(700, CUDA_ERROR_ILLEGAL_ADDRESS) \
	X(701, CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES) \
	X(702, CUDA_ERROR_LAUNCH_TIMEOUT) \
	X(703, CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING) \
	X(704, CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED) \
	X(705, CUDA_ERROR_PEER_ACCESS_NOT_ENABLED) \
	X(708, CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE) \
	X(709, CUDA_ERROR_CONTEXT_IS_DESTROYED) \
	X(710, CUDA_ERROR_ASSERT) \
	X(711, CUDA_ERROR_TOO_MANY_PEERS) \
	X(712, CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED) \
	X(713, CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED) \
	X(714, CUDA_ERROR_HARDWARE_STACK_ERROR) \
	X(715, CUDA_ERROR_ILLEGAL_INSTRUCTION) \
	X(716, CUDA_ERROR_MISALIGNED_ADDRESS) \
	X(717, CUDA_ERROR_INVALID_ADDRESS_SPACE) \
	X(718, CUDA_ERROR_INVALID_PC) \
	X(719, CUDA_ERROR_LAUNCH_FAILED) \
	X(720, CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE) \
	X(721, CUDA_ERROR_TENSOR_MEMORY_LEAK) \
	X(800, CUDA_ERROR_NOT_PERMITTED) \
	X(801, CUDA_ERROR_NOT_SUPPORTED) \
	X(802, CUDA_ERROR_SYSTEM_NOT_READY) \
	X(803, CUDA_ERROR_SYSTEM_DRIVER_MISMATCH) \
	X(804, CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE) \
	X(805, CUDA_ERROR_MPS_CONNECTION_FAILED) \
	X(806, CUDA_ERROR_MPS_RPC_FAILURE) \
	X(807, CUDA_ERROR_MPS_SERVER_NOT_READY) \
	X(808, CUDA_ERROR_MPS_MAX_CLIENTS_REACHED) \
	X(809, CUDA_ERROR_MPS_MAX_CONNECTIONS_REACHED) \
	X(810, CUDA_ERROR_MPS_CLIENT_TERMINATED) \
	X(811, CUDA_ERROR_CDP_NOT_SUPPORTED) \
	X(812, CUDA_ERROR_CDP_VERSION_MISMATCH) \
	X(900, CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED) \
	X(901, CUDA_ERROR_STREAM_CAPTURE_INVALIDATED) \
	X(902, CUDA_ERROR_STREAM_CAPTURE_MERGE) \
	X(903, CUDA_ERROR_STREAM_CAPTURE_UNMATCHED) \
	X(904, CUDA_ERROR_STREAM_CAPTURE_UNJOINED) \
	X(905, CUDA_ERROR_STREAM_CAPTURE_ISOLATION) \
	X(906, CUDA_ERROR_STREAM_CAPTURE_IMPLICIT) \
	X(907, CUDA_ERROR_CAPTURED_EVENT) \
	X(908, CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD) \
	X(909, CUDA_ERROR_TIMEOUT) \
	X(910, CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE) \
	X(911, CUDA_ERROR_EXTERNAL_DEVICE) \
	X(912, CUDA_ERROR_INVALID_CLUSTER_SIZE) \
	X(913, CUDA_ERROR_FUNCTION_NOT_LOADED) \
	X(914, CUDA_ERROR_INVALID_RESOURCE_TYPE) \
	X(915, CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION) \
	X(916, CUDA_ERROR_KEY_ROTATION) \
	X(999, CUDA_ERROR_UNKNOWN)

#define CW_CUDAERROR_LIST(X) \
	X(0, cudaSuccess) \
	X(1, cudaErrorInvalidValue) \
	X(2, cudaErrorMemoryAllocation) \
	X(3, cudaErrorInitializationError) \
	X(4, cudaErrorCudartUnloading) \
	X(5, cudaErrorProfilerDisabled) \
	X(6, cudaErrorProfilerNotInitialized) \
	X(7, cudaErrorProfilerAlreadyStarted) \
	X(8, cudaErrorProfilerAlreadyStopped) \
	X(9, cudaErrorInvalidConfiguration) \
	X(12, cudaErrorInvalidPitchValue) \
	X(13, cudaErrorInvalidSymbol) \
	X(16, cudaErrorInvalidHostPointer) \
	X(17, cudaErrorInvalidDevicePointer) \
	X(18, cudaErrorInvalidTexture) \
	X(19, cudaErrorInvalidTextureBinding) \
	X(20, cudaErrorInvalidChannelDescriptor) \
	X(21, cudaErrorInvalidMemcpyDirection) \
	X(22, cudaErrorAddressOfConstant) \
	X(23, cudaErrorTextureFetchFailed) \
	X(24, cudaErrorTextureNotBound) \
	X(25, cudaErrorSynchronizationError) \
	X(26, cudaErrorInvalidFilterSetting) \
	X(27, cudaErrorInvalidNormSetting) \
	X(28, cudaErrorMixedDeviceExecution) \
	X(31, cudaErrorNotYetImplemented) \
	X(32, cudaErrorMemoryValueTooLarge) \
	X(34, cudaErrorStubLibrary) \
	X(35, cudaErrorInsufficientDriver) \
	X(36, cudaErrorCallRequiresNewerDriver) \
	X(37, cudaErrorInvalidSurface) \
	X(43, cudaErrorDuplicateVariableName) \
	X(44, cudaErrorDuplicateTextureName) \
	X(45, cudaErrorDuplicateSurfaceName) \
	X(46, cudaErrorDevicesUnavailable) \
	X(49, cudaErrorIncompatibleDriverContext) \
	X(52, cudaErrorMissingConfiguration) \
	X(53, cudaErrorPriorLaunchFailure) \
	X(65, cudaErrorLaunchMaxDepthExceeded) \
	X(66, cudaErrorLaunchFileScopedTex) \
	X(67, cudaErrorLaunchFileScopedSurf) \
	X(68, cudaErrorSyncDepthExceeded) \
	X(69, cudaErrorLaunchPendingCountExceeded) \
	X(98, cudaErrorInvalidDeviceFunction) \
	X(100, cudaErrorNoDevice) \
	X(101, cudaErrorInvalidDevice) \
	X(102, cudaErrorDeviceNotLicensed) \
	X(103, cudaErrorSoftwareValidityNotEstablished) \
	X(127, cudaErrorStartupFailure) \
	X(200, cudaErrorInvalidKernelImage) \
	X(201, cudaErrorDeviceUninitialized) \
	X(205, cudaErrorMapBufferObjectFailed) \
	X(206, cudaErrorUnmapBufferObjectFailed) \
	X(207, cudaErrorArrayIsMapped) \
	X(208, cudaErrorAlreadyMapped) \
	X(209, cudaErrorNoKernelImageForDevice) \
	X(210, cudaErrorAlreadyAcquired) \
	X(211, cudaErrorNotMapped) \
	X(212, cudaErrorNotMappedAsArray) \
	X(213, cudaErrorNotMappedAsPointer) \
	X(214, cudaErrorECCUncorrectable) \
	X(215, cudaErrorUnsupportedLimit) \
	X(216, cudaErrorDeviceAlreadyInUse) \
	X(217, cudaErrorPeerAccessUnsupported) \
	X(218, cudaErrorInvalidPtx) \
	X(219, cudaErrorInvalidGraphicsContext) \
	X(220, cudaErrorNvlinkUncorrectable) \
	X(221, cudaErrorJitCompilerNotFound) \
	X(222, cudaErrorUnsupportedPtxVersion) \
	X(223, cudaErrorJitCompilationDisabled) \
	X(224, cudaErrorUnsupportedExecAffinity) \
	X(225, cudaErrorUnsupportedDevSideSync) \
	X(226, cudaErrorContained) \
	X(300, cudaErrorInvalidSource) \
	X(301, cudaErrorFileNotFound) \
	X(302, cudaErrorSharedObjectSymbolNotFound) \
	X(303, cudaErrorSharedObjectInitFailed) \
	X(304, cudaErrorOperatingSystem) \
	X(400, cudaErrorInvalidResourceHandle) \
	X(401, cudaErrorIllegalState) \
	X(402, cudaErrorLossyQuery) \
	X(500, cudaErrorSymbolNotFound) \
	X(600, cudaErrorNotReady) \
	X(700, cudaErrorIllegalAddress) \
	X(701, cudaErrorLaunchOutOfResources) \
	X(702, cudaErrorLaunchTimeout) \
	X(703, cudaErrorLaunchIncompatibleTexturing) \
	X(704, cudaErrorPeerAccessAlreadyEnabled) \
	X(705, cudaErrorPeerAccessNotEnabled) \
	X(708, cudaErrorSetOnActiveProcess) \
	X(709, cudaErrorContextIsDestroyed) \
	X(710, cudaErrorAssert) \
	X(711, cudaErrorTooManyPeers) \
	X(712, cudaErrorHostMemoryAlreadyRegistered) \
	X(713, cudaErrorHostMemoryNotRegistered) \
	X(714, cudaErrorHardwareStackError) \
	X(715, cudaErrorIllegalInstruction) \
	X(716, cudaErrorMisalignedAddress) \
	X(717, cudaErrorInvalidAddressSpace) \
	X(718, cudaErrorInvalidPc) \
	X(719, cudaErrorLaunchFailure) \
	X(720, cudaErrorCooperativeLaunchTooLarge) \
	X(721, cudaErrorTensorMemoryLeak) \
	X(800, cudaErrorNotPermitted) \
	X(801, cudaErrorNotSupported) \
	X(802, cudaErrorSystemNotReady) \
	X(803, cudaErrorSystemDriverMismatch) \
	X(804, cudaErrorCompatNotSupportedOnDevice) \
	X(805, cudaErrorMpsConnectionFailed) \
	X(806, cudaErrorMpsRpcFailure) \
	X(807, cudaErrorMpsServerNotReady) \
	X(808, cudaErrorMpsMaxClientsReached) \
	X(809, cudaErrorMpsMaxConnectionsReached) \
	X(810, cudaErrorMpsClientTerminated) \
	X(811, cudaErrorCdpNotSupported) \
	X(812, cudaErrorCdpVersionMismatch) \
	X(900, cudaErrorStreamCaptureUnsupported) \
	X(901, cudaErrorStreamCaptureInvalidated) \
	X(902, cudaErrorStreamCaptureMerge) \
	X(903, cudaErrorStreamCaptureUnmatched) \
	X(904, cudaErrorStreamCaptureUnjoined) \
	X(905, cudaErrorStreamCaptureIsolation) \
	X(906, cudaErrorStreamCaptureImplicit) \
	X(907, cudaErrorCapturedEvent) \
	X(908, cudaErrorStreamCaptureWrongThread) \
	X(909, cudaErrorTimeout) \
	X(910, cudaErrorGraphExecUpdateFailure) \
	X(911, cudaErrorExternalDevice) \
	X(912, cudaErrorInvalidClusterSize) \
	X(913, cudaErrorFunctionNotLoaded) \
	X(914, cudaErrorInvalidResourceType) \
	X(915, cudaErrorInvalidResourceConfiguration) \
	X(999, cudaErrorUnknown)

/* cuDNN 9 renumbered its status codes; the two ranges do not overlap. */
#define CW_CUDNNSTATUS_LIST(X) \
	X(0, CUDNN_STATUS_SUCCESS) \
	X(1001, CUDNN_STATUS_NOT_INITIALIZED) \
	X(1002, CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH) \
	X(1003, CUDNN_STATUS_SERIALIZATION_VERSION_MISMATCH) \
	X(1004, CUDNN_STATUS_DEPRECATED) \
	X(1005, CUDNN_STATUS_LICENSE_ERROR) \
	X(1006, CUDNN_STATUS_RUNTIME_IN_PROGRESS) \
	X(1007, CUDNN_STATUS_RUNTIME_FP_OVERFLOW) \
	X(1008, CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED) \
	X(2000, CUDNN_STATUS_BAD_PARAM) \
	X(2002, CUDNN_STATUS_BAD_PARAM_NULL_POINTER) \
	X(2003, CUDNN_STATUS_BAD_PARAM_MISALIGNED_POINTER) \
	X(2004, CUDNN_STATUS_BAD_PARAM_NOT_FINALIZED) \
	X(2005, CUDNN_STATUS_BAD_PARAM_OUT_OF_BOUND) \
	X(2006, CUDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT) \
	X(2007, CUDNN_STATUS_BAD_PARAM_STREAM_MISMATCH) \
	X(2008, CUDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH) \
	X(2009, CUDNN_STATUS_BAD_PARAM_DUPLICATED_ENTRIES) \
	X(2010, CUDNN_STATUS_BAD_PARAM_ATTRIBUTE_TYPE) \
	X(2011, CUDNN_STATUS_BAD_PARAM_CUDA_GRAPH_MISMATCH) \
	X(2012, CUDNN_STATUS_BAD_PARAM_DESCRIPTOR_TYPE) \
	X(3000, CUDNN_STATUS_NOT_SUPPORTED) \
	X(3001, CUDNN_STATUS_NOT_SUPPORTED_GRAPH_PATTERN) \
	X(3002, CUDNN_STATUS_NOT_SUPPORTED_SHAPE) \
	X(3003, CUDNN_STATUS_NOT_SUPPORTED_DATA_TYPE) \
	X(3004, CUDNN_STATUS_NOT_SUPPORTED_LAYOUT) \
	X(3005, CUDNN_STATUS_NOT_SUPPORTED_INCOMPATIBLE_CUDA_DRIVER) \
	X(3006, CUDNN_STATUS_NOT_SUPPORTED_INCOMPATIBLE_CUDART) \
	X(3007, CUDNN_STATUS_NOT_SUPPORTED_ARCH_MISMATCH) \
	X(3008, CUDNN_STATUS_NOT_SUPPORTED_RUNTIME_PREREQUISITE_MISSING) \
	X(3009, CUDNN_STATUS_NOT_SUPPORTED_SUBLIBRARY_UNAVAILABLE) \
	X(3010, CUDNN_STATUS_NOT_SUPPORTED_SHARED_MEMORY_INSUFFICIENT) \
	X(3011, CUDNN_STATUS_NOT_SUPPORTED_PADDING) \
	X(3012, CUDNN_STATUS_NOT_SUPPORTED_BAD_LAUNCH_PARAM) \
	X(3013, CUDNN_STATUS_NOT_SUPPORTED_CUDA_GRAPH_NATIVE_API) \
	X(3014, CUDNN_STATUS_NOT_SUPPORTED_INVALID_DYNAMIC_SHAPE) \
	X(4000, CUDNN_STATUS_INTERNAL_ERROR) \
	X(4001, CUDNN_STATUS_INTERNAL_ERROR_COMPILATION_FAILED) \
	X(4002, CUDNN_STATUS_INTERNAL_ERROR_UNEXPECTED_VALUE) \
	X(4003, CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED) \
	X(4004, CUDNN_STATUS_INTERNAL_ERROR_DEVICE_ALLOCATION_FAILED) \
	X(4005, CUDNN_STATUS_INTERNAL_ERROR_BAD_LAUNCH_PARAM) \
	X(4006, CUDNN_STATUS_INTERNAL_ERROR_TEXTURE_CREATION_FAILED) \
	X(5000, CUDNN_STATUS_EXECUTION_FAILED) \
	X(5001, CUDNN_STATUS_EXECUTION_FAILED_CUDA_DRIVER) \
	X(5002, CUDNN_STATUS_EXECUTION_FAILED_CUBLAS) \
	X(5003, CUDNN_STATUS_EXECUTION_FAILED_CUDART) \
	X(5004, CUDNN_STATUS_EXECUTION_FAILED_CURAND) \
	X(2001, CUDNN_STATUS_INVALID_VALUE)

/* cuDNN 7 and 8 (cudnnGetVersion() < 90000); their names come back in
 * cuDNN 9 with other numbers, so they cannot be checked against its
 * headers. */
#define CW_CUDNNSTATUS_LIST_V8(X) \
	X(1, CUDNN_STATUS_NOT_INITIALIZED) \
	X(2, CUDNN_STATUS_ALLOC_FAILED) \
	X(3, CUDNN_STATUS_BAD_PARAM) \
	X(4, CUDNN_STATUS_INTERNAL_ERROR) \
	X(5, CUDNN_STATUS_INVALID_VALUE) \
	X(6, CUDNN_STATUS_ARCH_MISMATCH) \
	X(7, CUDNN_STATUS_MAPPING_ERROR) \
	X(8, CUDNN_STATUS_EXECUTION_FAILED) \
	X(9, CUDNN_STATUS_NOT_SUPPORTED) \
	X(10, CUDNN_STATUS_LICENSE_ERROR) \
	X(11, CUDNN_STATUS_RUNTIME_PREREQUISITE_MISSING) \
	X(12, CUDNN_STATUS_RUNTIME_IN_PROGRESS) \
	X(13, CUDNN_STATUS_RUNTIME_FP_OVERFLOW) \
	X(14, CUDNN_STATUS_VERSION_MISMATCH)

/* The name of a code from the tables above, or NULL. */
const char *cw_curesult_name(cw_CUresult code);
const char *cw_cudaerror_name(cw_cudaError code);
const char *cw_cudnnstatus_name(cw_cudnnStatus code);

#endif
