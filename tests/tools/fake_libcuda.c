/* A fake libcuda.so.1 for the helper's tests: one pretend GPU whose
 * "device memory" is host memory and whose kernels run on the CPU, or a
 * driver that misbehaves in one chosen way. Built by
 * tests/cli/helper-fake.sh once per mode:
 *
 *   cc -shared -fPIC -DFAKE_MODE=FAKE_xxx [-DFAKE_CODE=n] fake_libcuda.c
 *
 * FAKE_GOOD	everything works, results are right
 * FAKE_WRONG	saxpy returns wrong results for some elements
 * FAKE_SEGV	cuInit dies of SIGSEGV
 * FAKE_HANG	cuInit never returns
 * FAKE_EXIT	cuInit calls exit(3)
 * FAKE_STDOUT	works, but prints protocol-looking lines to stdout
 * FAKE_INIT	cuInit returns FAKE_CODE
 * FAKE_JIT	every cuModuleLoadDataEx fails with FAKE_CODE and a log
 * FAKE_JIT_OLD	a JIT that knows PTX ISA 6.x but not 7.0 (a CUDA 10 driver)
 * FAKE_ATEXIT	works, and its atexit handler crashes
 * FAKE_NOLAUNCH works, but has no cuLaunchKernel (a damaged library)
 * FAKE_FORK	works, and its constructor leaves a child behind that keeps
 *		every descriptor it inherited (stdout included) and sleeps
 * FAKE_SETSID	the same, the child in a session of its own (setsid),
 *		the sleeper its child, orphaned at once (a daemon)
 *		(-DFAKE_HANG_INIT: and then hangs in cuInit)
 * FAKE_FDS	works, and its constructor writes the descriptors above 2
 *		it finds open, with what they point at, to FAKE_FDLIST
 * FAKE_FORGE	works, and its constructor writes a forged record (an end
 *		with "forged":true) to every pipe it finds open above 2
 * FAKE_SPAWN	(Windows) works, and cuInit leaves a copy of the program
 *		behind, started with "driver --lib" this DLL, that sleeps
 *		(CW_FAKE_CHILD in its environment keeps it from starting
 *		another)
 *
 * Only the functions the helper binds are here, with their plain C
 * types: this file must not need cuda.h either.
 *
 * The same file is a fake nvcuda.dll for tests/cli/verify-wine.sh:
 *
 *   x86_64-w64-mingw32-gcc -shared -DFAKE_MODE=FAKE_xxx fake_libcuda.c
 *
 * where FAKE_SEGV writes through a null pointer (an access violation,
 * Windows has no signal to raise), FAKE_HANG sleeps forever and
 * FAKE_EXIT calls ExitProcess(3); the modes that look through
 * /proc/self/fd or fork are Linux's only. */
#ifdef _WIN32
#include <io.h>
#include <windows.h>
#else
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>
#endif
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FAKE_GOOD	1
#define FAKE_WRONG	2
#define FAKE_SEGV	3
#define FAKE_HANG	4
#define FAKE_EXIT	5
#define FAKE_STDOUT	6
#define FAKE_INIT	7
#define FAKE_JIT	8
#define FAKE_JIT_OLD	9
#define FAKE_ATEXIT	10
#define FAKE_NOLAUNCH	11
#define FAKE_FORK	12
#define FAKE_SETSID	13
#define FAKE_FDS	14
#define FAKE_FORGE	15
#define FAKE_SPAWN	16

#ifndef FAKE_MODE
#define FAKE_MODE FAKE_GOOD
#endif
#ifndef FAKE_CODE
#define FAKE_CODE 222
#endif

typedef int CUresult;
typedef unsigned long long CUdeviceptr;

#define OK	0
#ifdef _WIN32
#define EXPORT	__declspec(dllexport)
#if FAKE_MODE == FAKE_FORK || FAKE_MODE == FAKE_SETSID || \
    FAKE_MODE == FAKE_FDS || FAKE_MODE == FAKE_FORGE || \
    FAKE_MODE == FAKE_ATEXIT || defined(FAKE_HANG_INIT)
#error "this mode is Linux's only"
#endif
#else
#define EXPORT	__attribute__((visibility("default")))
#endif

static int inited;

EXPORT CUresult cuInit(unsigned int flags);
EXPORT CUresult cuDriverGetVersion(int *v);
EXPORT CUresult cuGetErrorName(CUresult e, const char **s);
EXPORT CUresult cuGetErrorString(CUresult e, const char **s);
EXPORT CUresult cuDeviceGetCount(int *n);
EXPORT CUresult cuDeviceGet(int *d, int ordinal);
EXPORT CUresult cuDeviceGetName(char *name, int len, int dev);
EXPORT CUresult cuDeviceGetAttribute(int *v, int attr, int dev);
EXPORT CUresult cuDeviceTotalMem_v2(size_t *bytes, int dev);
EXPORT CUresult cuDeviceGetPCIBusId(char *bus, int len, int dev);
EXPORT CUresult cuDeviceGetUuid_v2(unsigned char *uuid, int dev);
EXPORT CUresult cuCtxCreate_v2(void **ctx, unsigned int flags, int dev);
EXPORT CUresult cuCtxDestroy_v2(void *ctx);
EXPORT CUresult cuCtxSynchronize(void);
EXPORT CUresult cuMemGetInfo_v2(size_t *free_b, size_t *total);
EXPORT CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t bytes);
EXPORT CUresult cuMemFree_v2(CUdeviceptr p);
EXPORT CUresult cuMemHostAlloc(void **p, size_t bytes, unsigned int flags);
EXPORT CUresult cuMemFreeHost(void *p);
EXPORT CUresult cuMemcpyHtoD_v2(CUdeviceptr d, const void *h, size_t n);
EXPORT CUresult cuMemcpyDtoH_v2(void *h, CUdeviceptr d, size_t n);
EXPORT CUresult cuMemcpyDtoD_v2(CUdeviceptr d, CUdeviceptr s, size_t n);
EXPORT CUresult cuModuleLoadDataEx(void **mod, const void *image,
    unsigned int n, int *opts, void **vals);
EXPORT CUresult cuModuleGetFunction(void **f, void *mod, const char *name);
EXPORT CUresult cuModuleUnload(void *mod);
EXPORT CUresult cuLaunchKernel(void *f, unsigned int gx, unsigned int gy,
    unsigned int gz, unsigned int bx, unsigned int by, unsigned int bz,
    unsigned int shared, void *stream, void **params, void **extra);

#if FAKE_MODE == FAKE_STDOUT
__attribute__((constructor)) static void
chatter(void)
{
	/* Both ways a library writes: stdio (buffered) and write(2). */
	printf("{\"check\":\"end\",\"ok\":true,\"from\":\"fake constructor\"}\n");
	if (write(1, "fake libcuda: not a record\n", 27) < 0)
		abort();
}
#endif

#if FAKE_MODE == FAKE_FORK || FAKE_MODE == FAKE_SETSID
/* A vendor library that starts a helper process of its own and returns:
 * the sleeper outlives the helper unless someone kills it. Bounded, so a
 * test that fails leaves nothing behind for long. */
__attribute__((constructor)) static void
leave_child(void)
{
	pid_t pid = fork();

	if (pid != 0)
		return;
#if FAKE_MODE == FAKE_SETSID
	setsid();
	if (fork() != 0)
		_exit(0);
#endif
	sleep(300);
	_exit(0);
}
#endif

#if FAKE_MODE == FAKE_FDS || FAKE_MODE == FAKE_FORGE
/* Calls fn with each open descriptor above 2 (but the directory listing
 * them) and what it is ("pipe:[…]", a path): what a library loaded by
 * the helper can reach. */
static void
each_fd(void (*fn)(int n, const char *target, void *arg), void *arg)
{
	char target[512], path[64];
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;

	if (d == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		int n = atoi(de->d_name);
		ssize_t t;

		if (de->d_name[0] == '.' || n <= 2 || n == dirfd(d))
			continue;
		snprintf(path, sizeof path, "/proc/self/fd/%d", n);
		t = readlink(path, target, sizeof target - 1);
		target[t > 0 ? t : 0] = '\0';
		fn(n, target, arg);
	}
	closedir(d);
}
#endif

#if FAKE_MODE == FAKE_FDS
#ifndef FAKE_FDLIST
#error "FAKE_FDS needs -DFAKE_FDLIST=\"path\""
#endif
struct fdtext {
	char	text[8192];
	size_t	len;
};

static void
note_fd(int n, const char *target, void *arg)
{
	struct fdtext *t = arg;

	if (t->len < sizeof t->text)
		t->len += (size_t)snprintf(t->text + t->len,
		    sizeof t->text - t->len, "%d %s\n", n, target);
}

/* Every descriptor the library can reach, as "N TARGET" lines. */
__attribute__((constructor)) static void
list_fds(void)
{
	struct fdtext t = { .len = 0 };
	int fd;

	each_fd(note_fd, &t);
	if (t.len > sizeof t.text - 1)
		t.len = sizeof t.text - 1;
	fd = open(FAKE_FDLIST, O_WRONLY | O_CREAT | O_APPEND, 0644);
	if (fd < 0)
		return;
	if (write(fd, t.text, t.len) < 0)
		abort();
	close(fd);
}
#endif

#if FAKE_MODE == FAKE_FORGE
static void
forge_into(int n, const char *target, void *arg)
{
	static const char line[] =
	    "{\"check\":\"end\",\"ok\":true,\"forged\":true}\n";

	(void)arg;
	/* Its read end, or a closed one, refuses: nothing to do then. */
	if (strncmp(target, "pipe:", 5) == 0 &&
	    write(n, line, sizeof line - 1) < 0)
		return;
}

/* A library that knows the protocol but not the run's token: it finds
 * the records' pipe by looking, whatever its number. */
__attribute__((constructor)) static void
forge(void)
{
	each_fd(forge_into, NULL);
}
#endif

#if FAKE_MODE == FAKE_ATEXIT
static void
crash_at_exit(void)
{
	raise(SIGSEGV);
}
#endif

#if FAKE_MODE == FAKE_SPAWN
#ifndef _WIN32
#error "FAKE_SPAWN is Windows' (FAKE_FORK is Linux's)"
#endif
/* A vendor DLL that starts a process of its own and returns: the copy
 * outlives the helper unless the runner kills it. */
static void
leave_process(void)
{
	wchar_t exe[MAX_PATH], dll[MAX_PATH], cmd[3 * MAX_PATH];
	STARTUPINFOW si = { .cb = sizeof si };
	PROCESS_INFORMATION pi;
	HMODULE self;

	if (GetEnvironmentVariableW(L"CW_FAKE_CHILD", NULL, 0) > 0) {
		for (;;)
			Sleep(INFINITE);
	}
	if (!GetModuleHandleExW(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS |
	    GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT,
	    (LPCWSTR)(void *)leave_process, &self) ||
	    GetModuleFileNameW(NULL, exe, MAX_PATH) == 0 ||
	    GetModuleFileNameW(self, dll, MAX_PATH) == 0)
		abort();
	_snwprintf(cmd, sizeof cmd / sizeof *cmd, L"\"%ls\" driver --lib \"%ls\"",
	    exe, dll);
	cmd[sizeof cmd / sizeof *cmd - 1] = L'\0';
	SetEnvironmentVariableW(L"CW_FAKE_CHILD", L"1");
	if (!CreateProcessW(exe, cmd, NULL, NULL, TRUE, 0, NULL, NULL, &si, &pi))
		abort();
	CloseHandle(pi.hThread);
	CloseHandle(pi.hProcess);
}
#endif

CUresult
cuInit(unsigned int flags)
{
	(void)flags;
#ifdef FAKE_HANG_INIT
	for (;;)
		pause();
#endif
#if FAKE_MODE == FAKE_SEGV && defined(_WIN32)
	{
		/* volatile: GCC would make a literal null store a trap
		 * (an illegal instruction), not an access violation. Wine
		 * may map the first page (its DOS area), which Windows
		 * never does: then a page that allows no access. */
		int *volatile null = NULL;

		*null = 1;
		null = VirtualAlloc(NULL, 4096, MEM_COMMIT | MEM_RESERVE,
		    PAGE_NOACCESS);
		*null = 1;
	}
#elif FAKE_MODE == FAKE_SEGV
	raise(SIGSEGV);
#elif FAKE_MODE == FAKE_HANG && defined(_WIN32)
	for (;;)
		Sleep(INFINITE);
#elif FAKE_MODE == FAKE_HANG
	for (;;)
		pause();
#elif FAKE_MODE == FAKE_EXIT && defined(_WIN32)
	ExitProcess(3);
#elif FAKE_MODE == FAKE_EXIT
	exit(3);
#elif FAKE_MODE == FAKE_INIT
	return FAKE_CODE;
#elif FAKE_MODE == FAKE_STDOUT
	printf("fake libcuda: cuInit says hello on stdout\n");
	fflush(stdout);
	printf("{\"check\":\"init\",\"ok\":false,\"code\":1}\n");
#elif FAKE_MODE == FAKE_ATEXIT
	atexit(crash_at_exit);
#elif FAKE_MODE == FAKE_SPAWN
	leave_process();
#endif
	inited = 1;
	return OK;
}

CUresult
cuDriverGetVersion(int *v)
{
	*v = 12080;
	return OK;
}

/* Names for a few codes only: the helper's table must answer the rest. */
CUresult
cuGetErrorName(CUresult e, const char **s)
{
	switch (e) {
	case 0: *s = "CUDA_SUCCESS"; return OK;
	case 100: *s = "CUDA_ERROR_NO_DEVICE"; return OK;
	case 804: *s = "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE"; return OK;
	default: *s = NULL; return 1;
	}
}

CUresult
cuGetErrorString(CUresult e, const char **s)
{
	switch (e) {
	case 100: *s = "no CUDA-capable device is detected"; return OK;
	case 804: *s = "forward compatibility was attempted on non supported HW";
		return OK;
	default: *s = NULL; return 1;
	}
}

#define NEED_INIT() do { if (!inited) return 3; } while (0)

CUresult
cuDeviceGetCount(int *n)
{
	NEED_INIT();
	*n = 1;
	return OK;
}

CUresult
cuDeviceGet(int *d, int ordinal)
{
	NEED_INIT();
	if (ordinal != 0)
		return 101;
	*d = 0;
	return OK;
}

CUresult
cuDeviceGetName(char *name, int len, int dev)
{
	(void)dev;
	snprintf(name, (size_t)len, "Fake GPU \"%s\"", "test\x01");
	return OK;
}

CUresult
cuDeviceGetAttribute(int *v, int attr, int dev)
{
	(void)dev;
	switch (attr) {
	case 13: *v = 1410000; return OK;	/* clock */
	case 16: *v = 1; return OK;		/* SMs */
	case 36: *v = 1215000; return OK;	/* memory clock */
	case 37: *v = 5120; return OK;		/* bus width */
	case 75: *v = 8; return OK;
	case 76: *v = 6; return OK;
	default: return 1;
	}
}

#define FAKE_TOTAL	(80u << 20)
#define FAKE_FREE	(64u << 20)

CUresult
cuDeviceTotalMem_v2(size_t *bytes, int dev)
{
	(void)dev;
	*bytes = FAKE_TOTAL;
	return OK;
}

CUresult
cuDeviceGetPCIBusId(char *bus, int len, int dev)
{
	(void)dev;
	snprintf(bus, (size_t)len, "0000:01:00.0");
	return OK;
}

CUresult
cuDeviceGetUuid_v2(unsigned char *uuid, int dev)
{
	(void)dev;
	for (int i = 0; i < 16; i++)
		uuid[i] = (unsigned char)i;
	return OK;
}

static int ctx_token;

CUresult
cuCtxCreate_v2(void **ctx, unsigned int flags, int dev)
{
	(void)flags;
	(void)dev;
	NEED_INIT();
	*ctx = &ctx_token;
	return OK;
}

CUresult
cuCtxDestroy_v2(void *ctx)
{
	return ctx == &ctx_token ? OK : 201;
}

CUresult
cuCtxSynchronize(void)
{
	return OK;
}

CUresult
cuMemGetInfo_v2(size_t *free_b, size_t *total)
{
	*free_b = FAKE_FREE;
	*total = FAKE_TOTAL;
	return OK;
}

CUresult
cuMemAlloc_v2(CUdeviceptr *p, size_t bytes)
{
	void *m = malloc(bytes);

	if (m == NULL)
		return 2;
	*p = (CUdeviceptr)(uintptr_t)m;
	return OK;
}

CUresult
cuMemFree_v2(CUdeviceptr p)
{
	free((void *)(uintptr_t)p);
	return OK;
}

CUresult
cuMemHostAlloc(void **p, size_t bytes, unsigned int flags)
{
	(void)flags;
	return (*p = malloc(bytes)) != NULL ? OK : 2;
}

CUresult
cuMemFreeHost(void *p)
{
	free(p);
	return OK;
}

CUresult
cuMemcpyHtoD_v2(CUdeviceptr d, const void *h, size_t n)
{
	memcpy((void *)(uintptr_t)d, h, n);
	return OK;
}

CUresult
cuMemcpyDtoH_v2(void *h, CUdeviceptr d, size_t n)
{
	memcpy(h, (const void *)(uintptr_t)d, n);
	return OK;
}

CUresult
cuMemcpyDtoD_v2(CUdeviceptr d, CUdeviceptr s, size_t n)
{
	memmove((void *)(uintptr_t)d, (const void *)(uintptr_t)s, n);
	return OK;
}

static int module_token;

/* The error log goes where CU_JIT_ERROR_LOG_BUFFER (5) says, at most
 * CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES (6) bytes; the size option comes
 * back as the bytes written, as the real driver does. */
static void
jit_log(unsigned int n, const int *opts, void **vals, const char *msg)
{
	char *buf = NULL;
	size_t size = 0;
	int size_at = -1;

	for (unsigned int i = 0; i < n; i++) {
		if (opts[i] == 5)
			buf = vals[i];
		else if (opts[i] == 6) {
			size = (size_t)(uintptr_t)vals[i];
			size_at = (int)i;
		}
	}
	if (buf == NULL || size == 0)
		return;
	snprintf(buf, size, "%s", msg);
	vals[size_at] = (void *)(uintptr_t)strlen(buf);
}

CUresult
cuModuleLoadDataEx(void **mod, const void *image, unsigned int n, int *opts,
    void **vals)
{
	const char *ptx = image;

	NEED_INIT();
#if FAKE_MODE == FAKE_JIT
	(void)ptx;
	jit_log(n, opts, vals, "ptxas application ptx input, line 5; fatal   : "
	    "Unsupported .version; current version is '5.0'\n"
	    "ptxas fatal   : Ptx assembly aborted due to errors");
	return FAKE_CODE;
#elif FAKE_MODE == FAKE_JIT_OLD
	if (strstr(ptx, ".version 7.") != NULL) {
		jit_log(n, opts, vals, "ptxas application ptx input, line 5; "
		    "fatal   : Unsupported .version 7.0; current version is '6.4'");
		return 222;
	}
#endif
	if (strstr(ptx, ".entry cw_saxpy") == NULL) {
		jit_log(n, opts, vals, "no saxpy in this PTX");
		return 218;
	}
	*mod = &module_token;
	return OK;
}

enum kernel { K_SAXPY, K_COPY, K_FMA };
static enum kernel kernels[] = { K_SAXPY, K_COPY, K_FMA };

CUresult
cuModuleGetFunction(void **f, void *mod, const char *name)
{
	if (mod != &module_token)
		return 400;
	if (strcmp(name, "cw_saxpy") == 0)
		*f = &kernels[0];
	else if (strcmp(name, "cw_copy") == 0)
		*f = &kernels[1];
	else if (strcmp(name, "cw_fma") == 0)
		*f = &kernels[2];
	else
		return 500;
	return OK;
}

CUresult
cuModuleUnload(void *mod)
{
	return mod == &module_token ? OK : 400;
}

static float
fma_thread(unsigned int t, unsigned int iters)
{
	float x[8];

	for (int j = 0; j < 8; j++)
		x[j] = (float)(t & 255) + (float)j;
	for (unsigned int i = 0; i < iters; i++)
		for (int j = 0; j < 8; j++)
			x[j] = fmaf(x[j], 0.9990234375f, 0.5f);
	return ((x[0] + x[1]) + (x[2] + x[3])) + ((x[4] + x[5]) + (x[6] + x[7]));
}

#if FAKE_MODE != FAKE_NOLAUNCH
CUresult
cuLaunchKernel(void *f, unsigned int gx, unsigned int gy, unsigned int gz,
    unsigned int bx, unsigned int by, unsigned int bz, unsigned int shared,
    void *stream, void **params, void **extra)
{
	size_t threads = (size_t)gx * gy * gz * bx * by * bz;

	(void)shared;
	(void)stream;
	(void)extra;
	switch (*(enum kernel *)f) {
	case K_SAXPY: {
		unsigned int n = *(unsigned int *)params[0];
		float a = *(float *)params[1];
		float *x = (float *)(uintptr_t)*(CUdeviceptr *)params[2];
		float *y = (float *)(uintptr_t)*(CUdeviceptr *)params[3];

		for (size_t i = 0; i < threads && i < n; i++) {
			y[i] = fmaf(a, x[i], y[i]);
#if FAKE_MODE == FAKE_WRONG
			if (i % 1000 == 7)
				y[i] += 0.5f;
#endif
		}
		break;
	}
	case K_COPY: {
		unsigned int n16 = *(unsigned int *)params[0];
		void *src = (void *)(uintptr_t)*(CUdeviceptr *)params[1];
		void *dst = (void *)(uintptr_t)*(CUdeviceptr *)params[2];

		memcpy(dst, src, (size_t)n16 * 16);
		break;
	}
	case K_FMA: {
		unsigned int iters = *(unsigned int *)params[0];
		float *out = (float *)(uintptr_t)*(CUdeviceptr *)params[1];

		/* The result depends on the index mod 256 only. */
		for (size_t i = 0; i < threads; i++)
			out[i] = i < 256 ? fma_thread((unsigned int)i, iters) :
			    out[i % 256];
		break;
	}
	}
#if FAKE_MODE == FAKE_STDOUT
	printf("{\"check\":\"saxpy\",\"ok\":false}\n");
#endif
	return OK;
}
#endif
