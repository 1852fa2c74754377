/* The error-code tables: cuDNN's status names and CUDA's runtime and
 * driver error codes, with what each means, and the recognisers that
 * find them in a pasted message by name or by number; see recognize.c. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "explain/recognize.h"
#include "explain/recognize_int.h"
#include "i18n.h"
#include "util/strbuf.h"
#include "util/version.h"
#include "util/xalloc.h"

/* ------------------------------------------------------------ cuDNN codes */

struct cudnn_status {
	const char	*name;		/* after CUDNN_STATUS_ */
	long		 number;	/* cuDNN 9's, or cuDNN 8's for names 9 dropped */
	const char	*meaning;
};

static const struct cudnn_status cudnn_statuses[] = {
	{ "NOT_INITIALIZED", 1001, N_("cuDNN could not initialise: the CUDA runtime or driver beneath it failed (no GPU visible, a driver too old for the CUDA runtime this cuDNN was built for), or GPU memory ran out while the handle was created") },
	{ "SUBLIBRARY_VERSION_MISMATCH", 1002, N_("the cuDNN sub-libraries loaded are different versions: two cuDNN installations are mixed on the library search path") },
	{ "SERIALIZATION_VERSION_MISMATCH", 1003, N_("a serialized execution plan was made by another cuDNN version") },
	{ "DEPRECATED", 1004, N_("a deprecated cuDNN API was called while deprecation errors were on") },
	{ "LICENSE_ERROR", 1005, N_("a cuDNN licence check failed") },
	{ "RUNTIME_IN_PROGRESS", 1006, N_("a run-time check is still in progress (cudnnQueryRuntimeError)") },
	{ "RUNTIME_FP_OVERFLOW", 1007, N_("a floating-point overflow happened during the computation") },
	{ "SUBLIBRARY_LOADING_FAILED", 1008, N_("a cuDNN sub-library (libcudnn_*.so) could not be loaded: it, or a library it needs such as cuBLAS or NVRTC, is missing from the search path") },
	{ "BAD_PARAM", 2000, N_("the caller passed a value cuDNN rejects: a bug or an unsupported use in the calling code or framework, not in the installation") },
	{ "INVALID_VALUE", 2001, N_("the caller passed a value cuDNN rejects: a bug or an unsupported use in the calling code or framework, not in the installation") },
	{ "NOT_SUPPORTED", 3000, N_("this cuDNN has no implementation for the requested operation, data type or layout; a newer cuDNN may have one") },
	{ "NOT_SUPPORTED_INCOMPATIBLE_CUDA_DRIVER", 3005, N_("the NVIDIA driver is too old for this cuDNN") },
	{ "NOT_SUPPORTED_INCOMPATIBLE_CUDART", 3006, N_("the CUDA runtime loaded is not one this cuDNN was built for") },
	{ "NOT_SUPPORTED_ARCH_MISMATCH", 3007, N_("this cuDNN has no code for the GPU's compute capability") },
	{ "ARCH_MISMATCH", 3007, N_("this cuDNN has no code for the GPU's compute capability") },
	{ "NOT_SUPPORTED_RUNTIME_PREREQUISITE_MISSING", 3008, N_("a library cuDNN loads at run time (NVRTC, cuBLAS) is missing") },
	{ "RUNTIME_PREREQUISITE_MISSING", 3008, N_("a library cuDNN loads at run time (NVRTC, cuBLAS) is missing") },
	{ "NOT_SUPPORTED_SUBLIBRARY_UNAVAILABLE", 3009, N_("the cuDNN sub-library this operation needs is not installed") },
	{ "NOT_SUPPORTED_SHARED_MEMORY_INSUFFICIENT", 3010, N_("the GPU has too little shared memory for this cuDNN kernel") },
	{ "INTERNAL_ERROR", 4000, N_("an internal cuDNN operation failed; most often a GPU memory allocation, or a cuDNN built for another CUDA runtime than the one loaded") },
	{ "INTERNAL_ERROR_HOST_ALLOCATION_FAILED", 4003, N_("cuDNN could not allocate memory") },
	{ "ALLOC_FAILED", 4003, N_("cuDNN could not allocate memory") },
	{ "INTERNAL_ERROR_DEVICE_ALLOCATION_FAILED", 4004, N_("cuDNN could not allocate GPU memory: the GPU's memory is used up") },
	{ "INTERNAL_ERROR_TEXTURE_CREATION_FAILED", 4006, N_("cuDNN could not access GPU memory (texture binding failed)") },
	{ "MAPPING_ERROR", 4006, N_("cuDNN could not access GPU memory (texture binding failed)") },
	{ "EXECUTION_FAILED", 5000, N_("a cuDNN GPU kernel failed to run: often a build with no code for this GPU, or a driver problem") },
	{ "EXECUTION_FAILED_CUDA_DRIVER", 5001, N_("a call into the CUDA driver failed while cuDNN ran a kernel") },
	{ "VERSION_MISMATCH", 1002, N_("the cuDNN sub-libraries loaded are different versions: two cuDNN installations are mixed on the library search path") },
};

/* The row for a status name (without the prefix): the exact one, else the
 * longest one it starts with (cuDNN 9 adds detail after a category). */
static const struct cudnn_status *
cudnn_status_lookup(const char *name, bool *exact)
{
	const struct cudnn_status *best = NULL;
	size_t best_len = 0;

	*exact = false;
	for (size_t i = 0; i < sizeof cudnn_statuses / sizeof cudnn_statuses[0]; i++) {
		const struct cudnn_status *c = &cudnn_statuses[i];
		size_t l = strlen(c->name);

		if (strcmp(name, c->name) == 0) {
			*exact = true;
			return c;
		}
		if (strncmp(name, c->name, l) == 0 && name[l] == '_' && l > best_len) {
			best = c;
			best_len = l;
		}
	}
	return best;
}

/* CUDNN_STATUS_X */
void
r_cudnn_status(struct scan *s, size_t at, size_t alen, const struct recogniser *r)
{
	size_t end = rz_fwd_while(s, at + alen, is_ident);
	const struct cudnn_status *c;
	struct explain_match m;
	char *name;
	bool exact;

	(void)r;
	if ((at > 0 && is_ident((unsigned char)s->t[at - 1])) || end == at + alen)
		return;
	name = rz_take(s, at + alen, end);
	if (strcmp(name, "SUCCESS") == 0) {
		free(name);
		return;
	}
	c = cudnn_status_lookup(name, &exact);
	free(name);
	rz_match_init(&m, EXPLAIN_CUDNN_STATUS);
	m.code = rz_take(s, at, end);
	if (c != NULL) {
		m.meaning = c->meaning;
		if (exact)
			m.number = c->number;
	}
	rz_add_match(s, &m, at);
}

/* ------------------------------------------------------------ CUDA codes */

struct cuda_error {
	long		 number;
	const char	*runtime;	/* cudaError_t name */
	const char	*driver;	/* CUresult name; NULL: none */
	const char	*text;		/* cudaGetErrorString's words (lower case); NULL: too common */
	enum explain_kind kind;
	const char	*meaning;
};

static const struct cuda_error cuda_errors[] = {
	{ 2, "cudaErrorMemoryAllocation", "CUDA_ERROR_OUT_OF_MEMORY", "cuda out of memory", EXPLAIN_OUT_OF_MEMORY, N_("the GPU has no memory left for an allocation: other processes hold it (nvidia-smi lists them), or the work is too large for the GPU") },
	{ 3, "cudaErrorInitializationError", "CUDA_ERROR_NOT_INITIALIZED", NULL, EXPLAIN_NO_DRIVER, N_("the CUDA driver could not be initialised, or CUDA was used after fork() in the child") },
	{ 34, "cudaErrorStubLibrary", "CUDA_ERROR_STUB_LIBRARY", "cuda driver is a stub library", EXPLAIN_STUB_LIBRARY, N_("the libcuda that was loaded is the toolkit's stub, meant only for linking, not the driver's") },
	{ 35, "cudaErrorInsufficientDriver", NULL, "cuda driver version is insufficient for cuda runtime version", EXPLAIN_DRIVER_TOO_OLD, N_("the installed driver is older than the CUDA runtime needs") },
	{ 36, "cudaErrorCallRequiresNewerDriver", NULL, "api call is not supported in the installed cuda driver", EXPLAIN_DRIVER_TOO_OLD, N_("the program calls a CUDA function the installed driver is too old to have") },
	{ 46, "cudaErrorDevicesUnavailable", "CUDA_ERROR_DEVICE_UNAVAILABLE", "cuda-capable device(s) is/are busy or unavailable", EXPLAIN_CUDA_ERROR, N_("the GPU is in exclusive-process compute mode and busy, or was made unavailable") },
	{ 98, "cudaErrorInvalidDeviceFunction", NULL, "invalid device function", EXPLAIN_NO_KERNEL_IMAGE, N_("the program has no code for this GPU's compute capability that the driver could load") },
	{ 100, "cudaErrorNoDevice", "CUDA_ERROR_NO_DEVICE", "no cuda-capable device is detected", EXPLAIN_NO_DEVICE, N_("the driver sees no GPU this process may use: none present, the driver not loaded, or CUDA_VISIBLE_DEVICES hiding them") },
	{ 101, "cudaErrorInvalidDevice", "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal", EXPLAIN_CUDA_ERROR, N_("the program asked for a GPU number that does not exist here: fewer GPUs are visible (CUDA_VISIBLE_DEVICES) than the program expects") },
	{ 209, "cudaErrorNoKernelImageForDevice", "CUDA_ERROR_NO_BINARY_FOR_GPU", "no kernel image is available for execution on the device", EXPLAIN_NO_KERNEL_IMAGE, N_("the program has neither machine code for this GPU's compute capability nor PTX the driver could compile for it") },
	{ 218, "cudaErrorInvalidPtx", "CUDA_ERROR_INVALID_PTX", "a ptx jit compilation failed", EXPLAIN_CUDA_ERROR, N_("the driver failed to JIT-compile the program's PTX") },
	{ 221, "cudaErrorJitCompilerNotFound", "CUDA_ERROR_JIT_COMPILER_NOT_FOUND", "ptx jit compiler library not found", EXPLAIN_CUDA_ERROR, N_("the driver's PTX JIT compiler, libnvidia-ptxjitcompiler.so.1, could not be loaded") },
	{ 222, "cudaErrorUnsupportedPtxVersion", "CUDA_ERROR_UNSUPPORTED_PTX_VERSION", "the provided ptx was compiled with an unsupported toolchain", EXPLAIN_PTX_TOOLCHAIN, N_("the PTX was made by a newer CUDA toolkit than the driver can JIT-compile") },
	{ 700, "cudaErrorIllegalAddress", "CUDA_ERROR_ILLEGAL_ADDRESS", "an illegal memory access was encountered", EXPLAIN_CUDA_ERROR, N_("a kernel accessed memory it must not: a bug in the program or a library it uses") },
	{ 701, "cudaErrorLaunchOutOfResources", "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES", "too many resources requested for launch", EXPLAIN_CUDA_ERROR, N_("a kernel was launched with more registers, threads or shared memory than the GPU has: a bug or a build not tuned for this GPU") },
	{ 702, "cudaErrorLaunchTimeout", "CUDA_ERROR_LAUNCH_TIMEOUT", "the launch timed out and was terminated", EXPLAIN_CUDA_ERROR, N_("a kernel ran longer than the display watchdog allows on a GPU that also drives a display") },
	{ 710, "cudaErrorAssert", "CUDA_ERROR_ASSERT", "device-side assert triggered", EXPLAIN_CUDA_ERROR, N_("an assertion in a GPU kernel failed: most often an index out of range (a label or an embedding index too large)") },
	{ 715, "cudaErrorIllegalInstruction", "CUDA_ERROR_ILLEGAL_INSTRUCTION", "an illegal instruction was encountered", EXPLAIN_CUDA_ERROR, N_("a kernel ran an illegal instruction: a bug in the program, or code built for another GPU") },
	{ 716, "cudaErrorMisalignedAddress", "CUDA_ERROR_MISALIGNED_ADDRESS", "misaligned address", EXPLAIN_CUDA_ERROR, N_("a kernel accessed memory at a misaligned address: a bug in the program or a library it uses") },
	{ 719, "cudaErrorLaunchFailure", "CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure", EXPLAIN_CUDA_ERROR, N_("a kernel failed while it ran: a bug in the program, or a GPU fault the kernel log shows as an Xid") },
	{ 802, "cudaErrorSystemNotReady", "CUDA_ERROR_SYSTEM_NOT_READY", "system not yet initialized", EXPLAIN_CUDA_ERROR, N_("the system is not ready for CUDA: on NVSwitch machines, nvidia-fabricmanager is not running") },
	{ 803, "cudaErrorSystemDriverMismatch", "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH", "system has unsupported display driver / cuda driver combination", EXPLAIN_DRIVER_MISMATCH, N_("the kernel module and the userspace libcuda are different driver versions") },
	{ 804, "cudaErrorCompatNotSupportedOnDevice", "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE", "forward compatibility was attempted on non supported hw", EXPLAIN_FORWARD_COMPAT, N_("a forward-compatibility libcuda (cuda-compat) was loaded on a GPU that does not support it") },
	{ 999, "cudaErrorUnknown", "CUDA_ERROR_UNKNOWN", NULL, EXPLAIN_CUDA_ERROR, N_("an unknown error; after a driver update, a reboot or reloading the nvidia modules often clears it") },
};

#define NCUDA_ERRORS	(sizeof cuda_errors / sizeof cuda_errors[0])

static const struct cuda_error *
cuda_error_by_number(long n)
{
	for (size_t i = 0; i < NCUDA_ERRORS; i++)
		if (cuda_errors[i].number == n)
			return &cuda_errors[i];
	return NULL;
}

static void
add_cuda_error(struct scan *s, const struct cuda_error *e, const char *name,
    size_t pos)
{
	struct explain_match m;

	rz_match_init(&m, e->kind);
	m.code = xstrdup(name);
	m.number = e->number;
	m.meaning = e->meaning;
	rz_add_match(s, &m, pos);
}

/* The error of a number the table knows, as found at pos. */
void
rz_add_cuda_error_number(struct scan *s, long number, size_t pos)
{
	const struct cuda_error *e = cuda_error_by_number(number);

	if (e != NULL)
		add_cuda_error(s, e, e->runtime, pos);
}

/* Every name and every wording of each CUDA error in the table. */
void
scan_cuda_errors(struct scan *s)
{
	for (size_t i = 0; i < NCUDA_ERRORS; i++) {
		const struct cuda_error *e = &cuda_errors[i];
		const char *names[] = { e->runtime, e->driver };

		for (size_t k = 0; k < 2; k++) {
			const char *p = s->t;
			size_t l;

			if (names[k] == NULL)
				continue;
			l = strlen(names[k]);
			while ((p = memmem(p, s->n - (size_t)(p - s->t), names[k], l)) != NULL) {
				size_t at = (size_t)(p - s->t);

				p += l;
				if ((at > 0 && is_ident((unsigned char)s->t[at - 1])) ||
				    (at + l < s->n && is_ident((unsigned char)s->t[at + l])))
					continue;
				add_cuda_error(s, e, names[k], at);
			}
		}
		if (e->text != NULL) {
			const char *p = s->low;
			size_t l = strlen(e->text);

			while ((p = memmem(p, s->n - (size_t)(p - s->low), e->text, l)) != NULL) {
				size_t at = (size_t)(p - s->low);

				p += l;
				add_cuda_error(s, e, e->runtime, at);
			}
		}
	}
}

/* The words after which a number is an error code: "CUDA error 35",
 * "cudaGetDeviceCount returned 35", "CudaAPIError: [34]", "code=209". */
static bool
code_word_before(const struct scan *s, size_t pos)
{
	static const char *const words[] = { "error", "returned", "code", "err",
	    "status", "result" };
	size_t p = pos, n = 0;

	while (p > 0 && n < 4 && strchr(" \t:=[(#", s->t[p - 1]) != NULL) {
		p--;
		n++;
	}
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
		size_t l = strlen(words[i]);

		if (p >= l && memcmp(s->low + p - l, words[i], l) == 0)
			return true;
	}
	return false;
}

/* A line that speaks of CUDA: names it, or calls a driver function
 * ("cuInit failed with error 34"). */
static bool
speaks_cuda(const struct scan *s, size_t ls, size_t le)
{
	if (rz_find_nocase(s, ls, le, "cuda") != (size_t)-1)
		return true;
	for (size_t p = ls; p + 2 < le; p++)
		if (s->t[p] == 'c' && s->t[p + 1] == 'u' &&
		    s->t[p + 2] >= 'A' && s->t[p + 2] <= 'Z' &&
		    (p == ls || !is_ident((unsigned char)s->t[p - 1])))
			return true;
	return false;
}

/* Error numbers on lines that speak of CUDA. */
void
scan_cuda_numbers(struct scan *s)
{
	for (size_t li = 0; li < s->nlines; li++) {
		size_t ls = s->line_start[li], le = rz_line_end(s, ls);

		if (!speaks_cuda(s, ls, le))
			continue;
		for (size_t p = ls; p < le; ) {
			size_t e;
			const struct cuda_error *ce;
			long n;

			if (!is_digit((unsigned char)s->t[p]) ||
			    (p > ls && (is_ident((unsigned char)s->t[p - 1]) ||
			    s->t[p - 1] == '.'))) {
				p++;
				continue;
			}
			e = rz_fwd_while(s, p, is_digit);
			if (e - p <= 3 && (e == le || (!is_ident((unsigned char)s->t[e]) &&
			    s->t[e] != '.')) && code_word_before(s, p)) {
				n = strtol(s->t + p, NULL, 10);
				ce = cuda_error_by_number(n);
				if (ce != NULL)
					add_cuda_error(s, ce, ce->runtime, p);
			}
			p = e;
		}
	}
}

