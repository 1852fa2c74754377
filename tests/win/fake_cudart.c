/* A fake cudart64_12.dll for tests/cli/verify-wine.sh: a CUDA 12.4
 * runtime on a machine without a GPU. It knows its version, reports
 * driver 0 and fails cudaGetDeviceCount with cudaErrorNoDevice (100),
 * as the real one does there; the memory functions are never reached. */
#define EXPORT	__declspec(dllexport)

EXPORT int cudaRuntimeGetVersion(int *v);
EXPORT int cudaDriverGetVersion(int *v);
EXPORT int cudaGetDeviceCount(int *n);
EXPORT const char *cudaGetErrorName(int e);
EXPORT const char *cudaGetErrorString(int e);
EXPORT int cudaMalloc(void **p, unsigned long long n);
EXPORT int cudaFree(void *p);
EXPORT int cudaMemcpy(void *d, const void *s, unsigned long long n, int k);

int cudaRuntimeGetVersion(int *v) { *v = 12040; return 0; }
int cudaDriverGetVersion(int *v) { *v = 0; return 0; }
int cudaGetDeviceCount(int *n) { *n = 0; return 100; }

const char *
cudaGetErrorName(int e)
{
	return e == 100 ? "cudaErrorNoDevice" : "unrecognized error code";
}

const char *
cudaGetErrorString(int e)
{
	return e == 100 ? "no CUDA-capable device is detected" :
	    "unrecognized error code";
}

int cudaMalloc(void **p, unsigned long long n) { (void)p; (void)n; return 2; }
int cudaFree(void *p) { (void)p; return 0; }

int
cudaMemcpy(void *d, const void *s, unsigned long long n, int k)
{
	(void)d, (void)s, (void)n, (void)k;
	return 1;
}
