/* Unit tests for src/diagnose/rules_verify.c: verification runs built by
 * hand from protocol lines (as the helper writes them), the rules run
 * over them, codes, severities, evidence and fixes checked. */
#include "config.h"

#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "diagnose/diagnose.h"
#include "lib/tap.h"
#include "matrix/matrix.h"
#include "util/xalloc.h"
#include "verify/verify.h"

static struct matrix *mx;
static struct findings fs;

static struct facts *
machine(bool driver)
{
	struct facts *f = facts_new("/", true);

	if (driver)
		fact_set(&f->driver.nvidia_loaded, "yes", "/sys/module/nvidia");
	else
		fact_set(&f->driver.nvidia_loaded, "no", "/sys/module/nvidia");
	f->verify.state = VERIFY_STATE_RAN;
	f->verify.helper = xstrdup("/usr/libexec/cudawiz/cudawiz-verify");
	f->verify.timeout_s = 30;
	return f;
}

/* A run of kind on lib, with the protocol lines that follow (NULL ends). */
static struct verify_run *
add_run(struct facts *f, enum verify_kind kind, const char *lib,
    const char *where, const char *owner, ...)
{
	struct verify_run *r = VEC_PUSH(&f->verify.runs);
	const char *line;
	va_list ap;

	r->kind = kind;
	r->lib = xstrdup(lib);
	r->where = xstrdup(where);
	r->owner = owner != NULL ? xstrdup(owner) : NULL;
	r->last_step_device = -1;
	strv_push(&r->argv, verify_kind_name(kind));
	strv_push(&r->argv, "--lib");
	strv_push(&r->argv, lib);
	r->ld_library_path = xstrdup("/x");
	va_start(ap, owner);
	while ((line = va_arg(ap, const char *)) != NULL) {
		struct verify_record rec;

		if (!verify_parse_line(line, strlen(line), &rec)) {
			printf("# bad test line: %s\n", line);
			exit(99);
		}
		*(struct verify_record *)VEC_PUSH(&r->records) = rec;
	}
	va_end(ap);
	return r;
}

static void
run(const struct facts *f)
{
	struct diagnose_input in = { f, mx, 0, 0 };

	findings_free(&fs);
	memset(&fs, 0, sizeof fs);
	rules_verify(&in, &fs);
}

static const struct finding *
get(enum finding_code code)
{
	return findings_find(&fs, code);
}

static bool
has(const struct strv *sv, const char *s)
{
	for (size_t i = 0; sv != NULL && i < sv->n; i++)
		if (strstr(sv->v[i], s) != NULL)
			return true;
	return false;
}

#define EVID(fd, s) ((fd) != NULL && has(&(fd)->evidence, (s)))
#define FIX(fd, s) ((fd) != NULL && has(&(fd)->fix, (s)))
#define DETAIL(fd, s) ((fd) != NULL && strstr((fd)->detail, (s)) != NULL)
#define SEV(fd) ((fd) != NULL ? (int)(fd)->severity : -1)

#define CUDART13 "/usr/local/cuda-13.0/lib64/libcudart.so.13"
#define INIT35 "{\"check\":\"init\",\"ok\":false,\"code\":35,\"name\":\"cudaErrorInsufficientDriver\",\"message\":\"CUDA driver version is insufficient for CUDA runtime version\"}"

static void
test_insufficient(void)
{
	struct facts *f;
	const struct finding *fd;
	struct finding *stat;

	/* No driver at all: the runtime's 35 is a consequence, information. */
	f = machine(false);
	add_run(f, VERIFY_RUNTIME, CUDART13, "toolkit", "/usr/local/cuda-13.0",
	    "{\"check\":\"runtime_version\",\"version\":13000}",
	    "{\"check\":\"driver_version\",\"version\":0}", INIT35, NULL);
	run(f);
	fd = get(FINDING_RUNTIME_INIT_FAILED);
	is_int(SEV(fd), SEV_INFO, "35 without a driver: RUNTIME_INIT_FAILED, information");
	ok(DETAIL(fd, "cudaErrorInsufficientDriver (35)") && DETAIL(fd, "no NVIDIA driver"),
	    "... naming the error and the cause");
	ok(DETAIL(fd, "(toolkit /usr/local/cuda-13.0)"), "... and whose runtime it is");
	is_str(finding_code_name(fd->code), "RUNTIME_INIT_FAILED", "... its code's name");
	ok(EVID(fd, "cudaRuntimeGetVersion = 13000 (CUDA 13.0)"), "... the runtime's version");
	ok(EVID(fd, "no driver answered"), "... the driver's 0");
	ok(EVID(fd, "checked with: CUDA_CACHE_DISABLE=1 LD_LIBRARY_PATH=/x "
	    "/usr/libexec/cudawiz/cudawiz-verify runtime --lib " CUDART13),
	    "... and the command that reproduces it");
	ok(get(FINDING_DRIVER_TOO_OLD) == NULL, "no DRIVER_TOO_OLD without a driver");
	facts_free(f);

	/* A driver too old: DRIVER_TOO_OLD with both versions and a fix. */
	f = machine(true);
	add_run(f, VERIFY_RUNTIME, CUDART13, "toolkit", "/usr/local/cuda-13.0",
	    "{\"check\":\"runtime_version\",\"version\":13000}",
	    "{\"check\":\"driver_version\",\"version\":12040}", INIT35, NULL);
	run(f);
	fd = get(FINDING_DRIVER_TOO_OLD);
	is_int(SEV(fd), SEV_ERROR, "35 with a driver: DRIVER_TOO_OLD");
	ok(EVID(fd, "the driver runs CUDA up to 12.4"), "... the driver's CUDA level");
	ok(EVID(fd, "CUDA 13.0 needs driver >= 580"), "... what 13.0 needs (the matrix)");
	ok(FIX(fd, "sudo apt-get install nvidia-driver-580"), "... the driver to install");
	is_int(get(FINDING_RUNTIME_INIT_FAILED) == NULL, 1, "no second finding");

	/* The same with the static rule's finding already there: the live
	 * result becomes its evidence. */
	findings_free(&fs);
	memset(&fs, 0, sizeof fs);
	stat = finding_add(&fs, FINDING_DRIVER_TOO_OLD,
	    "CUDA 13.0 at /usr/local/cuda-13.0 needs NVIDIA driver 580.65.06 or newer");
	{
		struct diagnose_input in = { f, mx, 0, 0 };

		rules_verify(&in, &fs);
	}
	is_int(fs.n, 1, "a static DRIVER_TOO_OLD for that toolkit: still one finding");
	ok(has(&fs.v[0].evidence, "live: cudaGetDeviceCount returned "
	    "cudaErrorInsufficientDriver (35)"), "... with the live proof as evidence");
	(void)stat;
	facts_free(f);
}

static void
test_driver_codes(void)
{
	struct facts *f;
	const struct finding *fd;

	f = machine(true);
	add_run(f, VERIFY_DRIVER, "/usr/local/cuda/lib64/stubs/libcuda.so.1", "driver", NULL,
	    "{\"check\":\"init\",\"ok\":false,\"code\":34,\"name\":\"CUDA_ERROR_STUB_LIBRARY\",\"message\":\"CUDA driver is a stub library\"}",
	    NULL);
	run(f);
	fd = get(FINDING_STUB_LIBCUDA);
	ok(fd != NULL && DETAIL(fd, "cuInit returned CUDA_ERROR_STUB_LIBRARY (34)"),
	    "34: STUB_LIBCUDA, with cuInit's words");
	ok(FIX(fd, "cudawiz why libcuda.so.1"), "... and where to look");
	facts_free(f);

	f = machine(true);
	add_run(f, VERIFY_DRIVER, "/usr/local/cuda/compat/libcuda.so.1", "driver", NULL,
	    "{\"check\":\"init\",\"ok\":false,\"code\":804,\"name\":\"CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE\",\"message\":null}",
	    NULL);
	run(f);
	fd = get(FINDING_FORWARD_COMPAT_UNSUPPORTED);
	ok(fd != NULL && DETAIL(fd, "(804)"), "804: FORWARD_COMPAT_UNSUPPORTED");
	ok(FIX(fd, "cuda-compat"), "... the fix names cuda-compat");
	facts_free(f);

	f = machine(true);
	add_run(f, VERIFY_DRIVER, "/usr/lib/x86_64-linux-gnu/libcuda.so.1", "driver", NULL,
	    "{\"check\":\"init\",\"ok\":false,\"code\":999,\"name\":\"CUDA_ERROR_UNKNOWN\",\"message\":\"unknown error\"}",
	    NULL);
	run(f);
	fd = get(FINDING_RUNTIME_INIT_FAILED);
	is_int(SEV(fd), SEV_ERROR, "999: RUNTIME_INIT_FAILED, an error");
	ok(EVID(fd, "nvidia_uvm"), "... the cause: nvidia_uvm");
	ok(FIX(fd, "sudo rmmod nvidia_uvm && sudo modprobe nvidia_uvm"), "... and its fix");
	facts_free(f);

	/* No device while CUDA_VISIBLE_DEVICES hides them: that finding gets
	 * the proof. */
	f = machine(true);
	add_run(f, VERIFY_DRIVER, "/usr/lib/x86_64-linux-gnu/libcuda.so.1", "driver", NULL,
	    "{\"check\":\"init\",\"ok\":false,\"code\":100,\"name\":\"CUDA_ERROR_NO_DEVICE\",\"message\":\"no CUDA-capable device is detected\"}",
	    NULL);
	findings_free(&fs);
	memset(&fs, 0, sizeof fs);
	finding_add(&fs, FINDING_NO_VISIBLE_DEVICES, "CUDA_VISIBLE_DEVICES=-1 hides every GPU");
	{
		struct diagnose_input in = { f, mx, 0, 0 };

		rules_verify(&in, &fs);
	}
	is_int(fs.n, 1, "100 with NO_VISIBLE_DEVICES: no new finding");
	ok(has(&fs.v[0].evidence, "CUDA_ERROR_NO_DEVICE (100)"), "... the proof is its evidence");
	facts_free(f);

	/* The driver library that does not load, with no driver: said
	 * elsewhere (LIBCUDA_NOT_FOUND). */
	f = machine(false);
	add_run(f, VERIFY_DRIVER, "libcuda.so.1", "driver", NULL,
	    "{\"check\":\"load\",\"lib\":\"libcuda.so.1\",\"ok\":false,\"error\":\"libcuda.so.1: cannot open shared object file\",\"path\":null}",
	    NULL);
	run(f);
	is_int(fs.n, 0, "libcuda missing on a machine without a driver: nothing new");
	facts_free(f);

	f = machine(true);
	add_run(f, VERIFY_RUNTIME, CUDART13, "toolkit", "/usr/local/cuda-13.0",
	    "{\"check\":\"load\",\"lib\":\"" CUDART13 "\",\"ok\":false,\"error\":\"" CUDART13 ": file too short\",\"path\":null}",
	    NULL);
	run(f);
	fd = get(FINDING_RUNTIME_INIT_FAILED);
	ok(DETAIL(fd, "could not be loaded: " CUDART13 ": file too short"),
	    "a runtime that does not load: RUNTIME_INIT_FAILED with dlerror's words");
	facts_free(f);
}

static void
test_ptx_kernels(void)
{
	struct facts *f;
	const struct finding *fd;

	f = machine(true);
	add_run(f, VERIFY_DRIVER, "/usr/lib/x86_64-linux-gnu/libcuda.so.1", "driver", NULL,
	    "{\"check\":\"init\",\"ok\":true}",
	    "{\"check\":\"ptx_jit\",\"device\":0,\"ok\":false,\"code\":222,\"name\":\"CUDA_ERROR_UNSUPPORTED_PTX_VERSION\",\"message\":\"the provided PTX was compiled with an unsupported toolchain.\",\"tried\":[\"ptx70_sm50\",\"ptx60_sm50\"],\"log\":\"ptxas application ptx input, line 1; fatal   : Unsupported .version 7.0; current version is '6.4'\\nptxas fatal   : Ptx assembly aborted due to errors\"}",
	    "{\"check\":\"saxpy\",\"device\":0,\"ok\":false,\"n\":1048576,\"max_error\":3.5,\"bad\":1048576}",
	    "{\"check\":\"fma\",\"device\":0,\"ok\":false,\"code\":719,\"name\":\"CUDA_ERROR_LAUNCH_FAILED\",\"message\":\"unspecified launch failure\"}",
	    "{\"check\":\"end\",\"ok\":false}", NULL);
	run(f);
	fd = get(FINDING_PTX_JIT_FAILED);
	ok(fd != NULL && DETAIL(fd, "device 0") && DETAIL(fd, "(222)"),
	    "a JIT failure: PTX_JIT_FAILED on device 0, code 222");
	ok(EVID(fd, "newer ISA"), "... 222's cause");
	ok(EVID(fd, "JIT log: ptxas fatal   : Ptx assembly aborted"), "... the JIT log, line by line");
	ok(EVID(fd, "variants tried: [\"ptx70_sm50\",\"ptx60_sm50\"]"), "... the variants tried");
	fd = get(FINDING_KERNEL_FAILED);
	ok(fd != NULL, "wrong results and a failed launch: KERNEL_FAILED");
	ok(EVID(fd, "saxpy: 1048576 results wrong, largest error 3.5"), "... saxpy's numbers");
	ok(EVID(fd, "fma: CUDA_ERROR_LAUNCH_FAILED (719)"), "... fma's error");
	is_int(findings_count(&fs, SEV_ERROR), 2, "one finding for all the kernels of a run");
	facts_free(f);

	/* Everything passed: nothing to say. */
	f = machine(true);
	add_run(f, VERIFY_DRIVER, "/usr/lib/x86_64-linux-gnu/libcuda.so.1", "driver", NULL,
	    "{\"check\":\"init\",\"ok\":true}",
	    "{\"check\":\"ptx_jit\",\"device\":0,\"ok\":true,\"variant\":\"ptx70_sm50\"}",
	    "{\"check\":\"saxpy\",\"device\":0,\"ok\":true,\"n\":67108864,\"max_error\":0,\"bad\":0}",
	    "{\"check\":\"end\",\"ok\":true}", NULL);
	run(f);
	is_int(fs.n, 0, "a run where every check passed: no finding");
	facts_free(f);
}

static void
test_cudnn(void)
{
	struct facts *f;
	const struct finding *fd;

	f = machine(false);
	add_run(f, VERIFY_CUDNN, "/usr/local/cuda/lib64/libcudnn.so.9", "toolkit", NULL,
	    "{\"check\":\"cudnn_version\",\"version\":91900,\"cudart_version\":13000}",
	    "{\"check\":\"cudnn_create\",\"ok\":false,\"code\":1001,\"name\":\"CUDNN_STATUS_NOT_INITIALIZED\",\"message\":\"CUDNN_STATUS_NOT_INITIALIZED\"}",
	    NULL);
	f->verify.runs.v[0].cudart = xstrdup(CUDART13);
	run(f);
	fd = get(FINDING_CUDNN_FAILED);
	is_int(SEV(fd), SEV_INFO, "cudnnCreate failing with no driver: information");
	ok(DETAIL(fd, "CUDNN_STATUS_NOT_INITIALIZED (1001)"), "... with cuDNN's status");
	ok(EVID(fd, "live: cuDNN 91900, built against CUDA runtime 13000"), "... the live versions");
	ok(EVID(fd, "with the CUDA runtime " CUDART13), "... and the cudart it was given");
	facts_free(f);

	f = machine(true);
	add_run(f, VERIFY_CUDNN, "/usr/local/cuda/lib64/libcudnn.so.9", "toolkit", NULL,
	    "{\"check\":\"cudnn_create\",\"ok\":true}",
	    "{\"check\":\"convolution\",\"ok\":false,\"max_error\":17.25,\"ms\":1.0}", NULL);
	run(f);
	fd = get(FINDING_CUDNN_FAILED);
	is_int(SEV(fd), SEV_ERROR, "a wrong convolution: CUDNN_FAILED, an error");
	ok(DETAIL(fd, "largest error 17.25"), "... with its error");
	facts_free(f);
}

static void
test_outcomes(void)
{
	struct facts *f;
	struct verify_run *r;
	const struct finding *fd;

	f = machine(true);
	r = add_run(f, VERIFY_DRIVER, "/usr/lib/x86_64-linux-gnu/libcuda.so.1", "driver", NULL, NULL);
	r->outcome = VERIFY_SIGNALLED;
	r->signal = SIGSEGV;
	r->last_step = xstrdup("cuInit");
	r->stderr_tail = xstrdup("line one\n\nSegmentation fault in libcuda\n");
	run(f);
	fd = get(FINDING_VERIFY_CRASHED);
	ok(DETAIL(fd, "SIGSEGV") && DETAIL(fd, "in cuInit"), "a crash: VERIFY_CRASHED, the signal and the step");
	ok(EVID(fd, "stderr: Segmentation fault in libcuda"), "... what it said on stderr");
	ok(!EVID(fd, "stderr: \n") && !EVID(fd, "stderr: ;"), "... blank lines left out");
	ok(FIX(fd, "cudawiz-verify driver --lib /usr/lib/x86_64-linux-gnu/libcuda.so.1"),
	    "... the fix reproduces it alone");
	facts_free(f);

	f = machine(true);
	r = add_run(f, VERIFY_DRIVER, "/usr/lib/x86_64-linux-gnu/libcuda.so.1", "driver", NULL, NULL);
	r->outcome = VERIFY_TIMED_OUT;
	r->last_step = xstrdup("cuCtxCreate");
	run(f);
	fd = get(FINDING_VERIFY_TIMEOUT);
	ok(DETAIL(fd, "30 seconds") && DETAIL(fd, "cuCtxCreate"), "a hang: VERIFY_TIMEOUT, the time and the step");
	ok(FIX(fd, "cudawiz verify --timeout 120"), "... a longer timeout offered");
	ok(FIX(fd, "nvidia_uvm"), "... and the nvidia_uvm reload");
	facts_free(f);

	f = machine(true);
	r = add_run(f, VERIFY_RUNTIME, CUDART13, "toolkit", "/usr/local/cuda-13.0", NULL);
	r->outcome = VERIFY_EXITED;
	r->exit_status = 3;
	run(f);
	fd = get(FINDING_VERIFY_CRASHED);
	ok(DETAIL(fd, "status 3") && DETAIL(fd, "exit()"), "exit(3): VERIFY_CRASHED naming exit()");
	ok(!FIX(fd, "dmesg"), "... a runtime's: no kernel log advice");
	facts_free(f);

	f = machine(true);
	r = add_run(f, VERIFY_RUNTIME, CUDART13, "toolkit", "/usr/local/cuda-13.0",
	    "{\"check\":\"end\",\"ok\":true}", NULL);
	r->outcome = VERIFY_GARBLED;
	r->garbage_lines = 2;
	r->garbage_sample = xstrdup("hello from libcudart");
	run(f);
	fd = get(FINDING_VERIFY_CRASHED);
	is_int(SEV(fd), SEV_WARNING, "garbled output: a warning");
	ok(EVID(fd, "hello from libcudart"), "... showing the first line");
	facts_free(f);

	f = machine(true);
	f->verify.state = VERIFY_STATE_SKIPPED;
	r = add_run(f, VERIFY_RUNTIME, CUDART13, "toolkit", "/usr/local/cuda-13.0", INIT35, NULL);
	run(f);
	is_int(fs.n, 0, "verification that did not run: nothing");
	facts_free(f);
}

int
main(void)
{
	mx = matrix_embedded();
	test_insufficient();
	test_driver_codes();
	test_ptx_kernels();
	test_cudnn();
	test_outcomes();
	findings_free(&fs);
	matrix_free(mx);
	return done_testing();
}
