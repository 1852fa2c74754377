/* A fake cudnn64_9.dll for tests/cli/verify-wine.sh: cuDNN 9.1 for CUDA
 * 12.4 that imports from a DLL beside it (linked with needdep.c), as
 * NVIDIA's cuDNN DLLs need their siblings, and whose cudnnCreate fails
 * with CUDNN_STATUS_NOT_INITIALIZED (1001), as on a machine without a
 * GPU. The functions after cudnnCreate are never reached: stubs. */
#define EXPORT	__declspec(dllexport)

EXPORT unsigned long long cudnnGetVersion(void);
EXPORT unsigned long long cudnnGetCudartVersion(void);
EXPORT const char *cudnnGetErrorString(int st);
EXPORT int cudnnCreate(void **handle);

unsigned long long cudnnGetVersion(void) { return 90100; }
unsigned long long cudnnGetCudartVersion(void) { return 12040; }

const char *
cudnnGetErrorString(int st)
{
	return st == 1001 ? "CUDNN_STATUS_NOT_INITIALIZED" :
	    "CUDNN_STATUS_UNKNOWN";
}

int
cudnnCreate(void **handle)
{
	*handle = 0;
	return 1001;
}

#define STUB(name) EXPORT int name(void); int name(void) { return 2000; }
STUB(cudnnDestroy)
STUB(cudnnCreateTensorDescriptor)
STUB(cudnnSetTensor4dDescriptor)
STUB(cudnnDestroyTensorDescriptor)
STUB(cudnnCreateFilterDescriptor)
STUB(cudnnSetFilter4dDescriptor)
STUB(cudnnDestroyFilterDescriptor)
STUB(cudnnCreateConvolutionDescriptor)
STUB(cudnnSetConvolution2dDescriptor)
STUB(cudnnGetConvolution2dForwardOutputDim)
STUB(cudnnDestroyConvolutionDescriptor)
STUB(cudnnGetConvolutionForwardWorkspaceSize)
STUB(cudnnConvolutionForward)
