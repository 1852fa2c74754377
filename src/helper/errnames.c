/* The helper's own names for CUDA, runtime and cuDNN error codes, for
 * libraries too old to name them (cuGetErrorName is CUDA 6.0) or whose
 * name function fails (the stub libcuda fails every call). The lists
 * live in cudecl.h, where the cudecl test holds them to the headers. */
#include "config.h"

#include <stddef.h>

#include "helper/cudecl.h"

#define CASE(v, n) case v: return #n;

const char *
cw_curesult_name(cw_CUresult code)
{
	switch (code) {
	CW_CURESULT_LIST(CASE)
	default: return NULL;
	}
}

const char *
cw_cudaerror_name(cw_cudaError code)
{
	switch (code) {
	CW_CUDAERROR_LIST(CASE)
	default: return NULL;
	}
}

/* cuDNN 9 moved every status to four digits; 1 to 14 are cuDNN 7 and 8
 * codes, so one function serves both without knowing the version. */
const char *
cw_cudnnstatus_name(cw_cudnnStatus code)
{
	switch (code) {
	CW_CUDNNSTATUS_LIST(CASE)
	CW_CUDNNSTATUS_LIST_V8(CASE)
	default: return NULL;
	}
}
