/* present/prom.c: the exposition format written for facts built by hand,
 * including what no fixture tree reaches (live checks only run on a
 * machine with a driver): label escaping, bad UTF-8, label sets met
 * twice (counted, kept once, or the lowest kept), the verify series and
 * figures in base units, and a write error. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/tap.h"
#include "present/prom.h"
#include "util/xalloc.h"
#include "verify/verify.h"

/* The metrics of f and fs as one string (the caller frees). */
static char *
render(const struct facts *f, const struct findings *fs)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	if (fp == NULL || prom_print_doctor(fp, f, fs, NULL, 1795766400) != 0) {
		printf("# could not render\n");
		exit(99);
	}
	fclose(fp);
	return buf;
}

/* The lines of text that start with prefix, joined by newlines. */
static char *
lines(const char *text, const char *prefix)
{
	char *out = xstrdup(""), *tmp;
	const char *p = text;

	while (*p != '\0') {
		const char *nl = strchr(p, '\n');
		size_t n = nl != NULL ? (size_t)(nl - p) : strlen(p);

		if (strncmp(p, prefix, strlen(prefix)) == 0) {
			tmp = xasprintf("%s%s%.*s", out, *out ? "\n" : "",
			    (int)n, p);
			free(out);
			out = tmp;
		}
		p += n + (nl != NULL);
	}
	return out;
}

static void
check_lines(const char *text, const char *prefix, const char *want,
    const char *what)
{
	char *got = lines(text, prefix);

	is_str(got, want, "%s", what);
	free(got);
}

static void
add_toolkit(struct facts *f, const char *root, const char *release)
{
	struct toolkit_fact *t = VEC_PUSH(&f->toolkits);

	t->root = xstrdup(root);
	t->release = xstrdup(release);
}

static void
add_framework(struct py_env *e, const char *name, enum fw_gpu gpu,
    const char *cuda)
{
	struct framework_fact *fw = VEC_PUSH(&e->frameworks);

	fw->name = xstrdup(name);
	fw->version = xstrdup("2.4.0");
	fw->gpu = gpu;
	fw->cuda = cuda != NULL ? xstrdup(cuda) : NULL;
}

static void
add_records(struct verify_run *r, const char *const *recs)
{
	for (; *recs != NULL; recs++) {
		struct verify_record rec;

		if (!verify_parse_line(*recs, strlen(*recs), &rec)) {
			printf("# bad test line: %s\n", *recs);
			exit(99);
		}
		*(struct verify_record *)VEC_PUSH(&r->records) = rec;
	}
}

int
main(void)
{
	static const char *const driver_recs[] = {
		"{\"check\":\"init\",\"ok\":true}",
		"{\"check\":\"saxpy\",\"device\":0,\"ok\":true,\"ms\":1.5}",
		"{\"check\":\"saxpy\",\"device\":1,\"ok\":false,\"bad\":3}",
		"{\"check\":\"copy_bandwidth\",\"device\":0,\"ok\":true,"
		    "\"kernel_gbps\":3350.5,\"memcpy_gbps\":2900}",
		"{\"check\":\"fma\",\"device\":0,\"ok\":true,\"gflops\":51000}",
		"{\"check\":\"pinned\",\"device\":0,\"ok\":true,"
		    "\"h2d_gbps\":25.25,\"d2h_gbps\":26}",
		"{\"check\":\"fma\",\"device\":1,\"ok\":false,\"gflops\":1}",
		"{\"check\":\"device_count\",\"count\":2}",
		NULL
	};
	static const char *const runtime_recs[] = {
		"{\"check\":\"init\",\"ok\":true}",
		"{\"check\":\"roundtrip\",\"ok\":true}",
		NULL
	};
	struct facts *f = facts_new("/", true);
	struct findings fs = { 0 };
	struct verify_run *r;
	struct py_env *e;
	char *out;

	/* An empty report: the families that are always there. */
	out = render(f, &fs);
	is_str(out, "# HELP cudawiz_up 1 when cudawiz made this report.\n"
	    "# TYPE cudawiz_up gauge\n"
	    "cudawiz_up 1\n"
	    "# HELP cudawiz_last_run_timestamp_seconds When the report was made, "
	    "in seconds since the epoch.\n"
	    "# TYPE cudawiz_last_run_timestamp_seconds gauge\n"
	    "cudawiz_last_run_timestamp_seconds 1795766400\n"
	    "# HELP cudawiz_findings Findings of the report by severity.\n"
	    "# TYPE cudawiz_findings gauge\n"
	    "cudawiz_findings{severity=\"error\"} 0\n"
	    "cudawiz_findings{severity=\"warning\"} 0\n"
	    "cudawiz_findings{severity=\"info\"} 0\n",
	    "an empty report: up, the timestamp and all three severities");
	free(out);

	/* Findings: one code twice is one series with 2. */
	finding_add(&fs, FINDING_ENV_PATH_MISSING, "a");
	finding_add(&fs, FINDING_ENV_PATH_MISSING, "b");
	finding_add(&fs, FINDING_NO_NVIDIA_GPU, "c");
	out = render(f, &fs);
	check_lines(out, "cudawiz_finding{",
	    "cudawiz_finding{code=\"ENV_PATH_MISSING\",severity=\"warning\"} 2\n"
	    "cudawiz_finding{code=\"NO_NVIDIA_GPU\",severity=\"error\"} 1",
	    "a code found twice is counted in one series");
	check_lines(out, "cudawiz_findings{severity=\"error\"}",
	    "cudawiz_findings{severity=\"error\"} 1", "the error count");
	free(out);

	/* Label values: escaped, bad bytes replaced, repeats kept once. */
	add_toolkit(f, "/opt/cuda\"q\\b\nn", "12.4.1");
	add_toolkit(f, "/usr/local/cuda-\377", "11.8.0");
	add_toolkit(f, "/usr/local/cuda-\376", "11.8.0");
	add_toolkit(f, "/usr/local/cuda-13.0", "13.0.1");
	add_toolkit(f, "/usr/local/cuda-13.0", "13.0.1");
	fact_set(&f->driver.module_version, "580.65.06", "/proc/driver/nvidia/version");
	fact_set(&f->driver.max_cuda, "13.0", "matrix");
	out = render(f, &fs);
	check_lines(out, "cudawiz_toolkit_info",
	    "cudawiz_toolkit_info{version=\"12.4.1\",path=\"/opt/cuda\\\"q\\\\b\\nn\"} 1\n"
	    "cudawiz_toolkit_info{version=\"11.8.0\",path=\"/usr/local/cuda-\xef\xbf\xbd\"} 1\n"
	    "cudawiz_toolkit_info{version=\"13.0.1\",path=\"/usr/local/cuda-13.0\"} 1",
	    "quote, backslash, newline escaped; bad bytes as U+FFFD; a repeat once");
	check_lines(out, "cudawiz_driver_info",
	    "cudawiz_driver_info{version=\"\",branch=\"580\",module_version=\"580.65.06\",max_cuda=\"13.0\"} 1",
	    "the driver: the branch from the module, an unknown libcuda empty");
	check_lines(out, "# HELP cudawiz_toolkit_info",
	    "# HELP cudawiz_toolkit_info A CUDA toolkit found on the machine.",
	    "one HELP line for the family");
	free(out);

	/* Frameworks: GPU-ready only if every copy is. */
	e = VEC_PUSH(&f->python_envs);
	e->prefix = xstrdup("/home/u/venv");
	add_framework(e, "pytorch", FW_GPU_YES, "12.1");
	add_framework(e, "pytorch", FW_GPU_NO, NULL);
	add_framework(e, "jax", FW_GPU_YES, "12.3");
	out = render(f, &fs);
	check_lines(out, "cudawiz_framework_",
	    "cudawiz_framework_info{env=\"/home/u/venv\",name=\"pytorch\",version=\"2.4.0\",cuda=\"12.1\"} 1\n"
	    "cudawiz_framework_info{env=\"/home/u/venv\",name=\"pytorch\",version=\"2.4.0\",cuda=\"cpu\"} 1\n"
	    "cudawiz_framework_info{env=\"/home/u/venv\",name=\"jax\",version=\"2.4.0\",cuda=\"12.3\"} 1\n"
	    "cudawiz_framework_gpu_ready{env=\"/home/u/venv\",name=\"pytorch\"} 0\n"
	    "cudawiz_framework_gpu_ready{env=\"/home/u/venv\",name=\"jax\"} 1",
	    "frameworks: info per build, GPU-ready the lowest of one name's copies");
	check_lines(out, "cudawiz_verify", "", "no live check ran: no verify series");
	free(out);

	/* Live checks: per check the lowest ok, figures per device in base
	 * units, a failed figure left out. */
	f->verify.state = VERIFY_STATE_RAN;
	r = VEC_PUSH(&f->verify.runs);
	r->kind = VERIFY_DRIVER;
	add_records(r, driver_recs);
	r = VEC_PUSH(&f->verify.runs);
	r->kind = VERIFY_RUNTIME;
	add_records(r, runtime_recs);
	out = render(f, &fs);
	check_lines(out, "cudawiz_verify_check_ok",
	    "cudawiz_verify_check_ok{check=\"init\"} 1\n"
	    "cudawiz_verify_check_ok{check=\"saxpy\"} 0\n"
	    "cudawiz_verify_check_ok{check=\"copy_bandwidth\"} 1\n"
	    "cudawiz_verify_check_ok{check=\"fma\"} 0\n"
	    "cudawiz_verify_check_ok{check=\"pinned\"} 1\n"
	    "cudawiz_verify_check_ok{check=\"roundtrip\"} 1",
	    "each check once: 0 when one run of it failed");
	check_lines(out, "cudawiz_verify_copy",
	    "cudawiz_verify_copy_bandwidth_bytes_per_second{device=\"0\"} 3350500000000",
	    "the copy kernel's bandwidth in bytes per second");
	check_lines(out, "cudawiz_verify_memcpy",
	    "cudawiz_verify_memcpy_bandwidth_bytes_per_second{device=\"0\"} 2900000000000",
	    "memcpy's");
	check_lines(out, "cudawiz_verify_fma",
	    "cudawiz_verify_fma_flops{device=\"0\"} 51000000000000",
	    "FMA in operations per second; a failed run's figure left out");
	check_lines(out, "cudawiz_verify_pinned",
	    "cudawiz_verify_pinned_host_to_device_bytes_per_second{device=\"0\"} 25250000000\n"
	    "cudawiz_verify_pinned_device_to_host_bytes_per_second{device=\"0\"} 26000000000",
	    "pinned copies both ways");
	ok(strlen(out) > 0 && out[strlen(out) - 1] == '\n', "ends with a newline");
	free(out);

	/* A stream that fails: -1. */
	{
		FILE *full = fopen("/dev/full", "w");

		if (full == NULL) {
			ok(1, "# SKIP /dev/full cannot be opened");
		} else {
			setvbuf(full, NULL, _IONBF, 0);
			is_int(prom_print_doctor(full, f, &fs, NULL, 0), -1,
			    "a write error is returned");
			fclose(full);
		}
	}

	findings_free(&fs);
	facts_free(f);
	return done_testing();
}
