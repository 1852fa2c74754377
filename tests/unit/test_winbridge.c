/* The Windows facts in the shared model (src/winprobe/winbridge.c): a
 * struct win_facts built in memory as the Windows probe fills it (driver
 * 560.94, an RTX 4090 and an Intel adapter in the registry, CUDA 12.6
 * and 11.2 with cuDNN, TensorFlow 2.10 and torch in two Pythons), bridged
 * with an environment block, then annotated with the embedded matrix:
 * the facts' fields, the Linux-only ones unknown, driver.max_cuda from
 * the matrix's Windows column, the spec items a Linux machine with
 * the same versions has for the shared keys, and verify's runs as the
 * live checks' facts. */
#include "config.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "diagnose/diagnose.h"
#include "lib/tap.h"
#include "matrix/matrix.h"
#include "spec/spec.h"
#include "util/xalloc.h"
#include "winprobe/winbridge.h"
#include "winprobe/winprobe.h"

#define TK	"Program Files/NVIDIA GPU Computing Toolkit/CUDA/"
#define WTK	"C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\"

static struct matrix *mx;

static struct win_toolkit *
add_toolkit(struct win_facts *wf, const char *ver, const char *json)
{
	struct win_toolkit *t = VEC_PUSH(&wf->toolkits);

	t->dir = xasprintf(TK "v%s", ver);
	t->dir_version = xstrdup(ver);
	t->json_version = json != NULL ? xstrdup(json) : NULL;
	t->cudart.path = xasprintf(TK "v%s/bin/cudart64_%s.dll", ver,
	    strncmp(ver, "11", 2) == 0 ? "110" : "12");
	return t;
}

static struct win_framework *
add_fw(struct win_python *p, const char *name, const char *ver,
    const char *cuda)
{
	struct win_framework *fw = VEC_PUSH(&p->frameworks);

	fw->name = xstrdup(name);
	fw->version = xstrdup(ver);
	fw->cuda_version = cuda != NULL ? xstrdup(cuda) : NULL;
	return fw;
}

/* The machine: driver ver (nvcuda.dll and the adapter's DriverVersion). */
static void
machine(struct win_facts *wf, const char *ver)
{
	struct win_cudavar *v;
	struct win_cudnn *c;
	struct win_python *p;
	struct win_framework *fw;
	struct win_need *n;

	memset(wf, 0, sizeof *wf);
	wf->drive = 'C';
	wf->cuda_path_toolkit = 0;
	wf->driver.state = WIN_NVCUDA_NVIDIA;
	wf->driver.nvcuda.path = xstrdup("Windows/System32/nvcuda.dll");
	wf->driver.nvcuda.file_version = xstrdup("32.0.15.6094");
	wf->driver.version = xstrdup(ver);
	wf->gpus_read = true;
	winprobe_add_gpu(wf, "Intel(R) UHD Graphics 770",
	    "PCI\\VEN_8086&DEV_4680", "31.0.101.4502", "Intel Corporation");
	winprobe_add_gpu(wf, "NVIDIA GeForce RTX 4090",
	    "PCI\\VEN_10DE&DEV_2684", "32.0.15.6094", "NVIDIA");
	/* The adapter's version stands for the kernel driver's. */
	free(wf->gpus.v[1].version);
	wf->gpus.v[1].version = xstrdup(ver);
	add_toolkit(wf, "12.6", "12.6.2");
	add_toolkit(wf, "11.2", NULL);
	v = VEC_PUSH(&wf->cudavars);
	v->name = xstrdup("CUDA_PATH");
	v->value = xstrdup(WTK "v12.6");
	v->dir = xstrdup(TK "v12.6");
	v->toolkit = 0;
	v = VEC_PUSH(&wf->cudavars);
	v->name = xstrdup("CUDA_PATH_V11_2");
	v->value = xstrdup(WTK "v11.2");
	v->dir = xstrdup(TK "v11.2");
	v->toolkit = 1;
	c = VEC_PUSH(&wf->cudnn);
	c->where = WIN_CUDNN_TOOLKIT;
	c->dir = xstrdup(TK "v12.6/bin");
	c->dll.path = xstrdup(TK "v12.6/bin/cudnn64_9.dll");
	strv_push(&c->parts, "cudnn_ops64_9.dll");
	c->header_version = xstrdup("9.5.1");
	c->header_path = xstrdup(TK "v12.6/include/cudnn_version.h");
	c = VEC_PUSH(&wf->cudnn);
	c->where = WIN_CUDNN_PATH;
	c->dir = xstrdup("tools/cudnn8/bin");
	c->dll.path = xstrdup("tools/cudnn8/bin/cudnn64_8.dll");

	p = VEC_PUSH(&wf->pythons);
	p->kind = WIN_PY_PYTHON_ORG;
	p->dir = xstrdup("Python310");
	p->exe = xstrdup("Python310/python.exe");
	p->version = xstrdup("3.10");
	p->site_packages = xstrdup("Python310/Lib/site-packages");
	p->path_index = 3;
	add_fw(p, "torch", "2.4.1+cpu", NULL);
	fw = add_fw(p, "tensorflow", "2.10.1", "64_112");
	fw->cudnn_version = xstrdup("64_8");
	n = VEC_PUSH(&fw->needs);
	n->dll = xstrdup("cudart64_110.dll");
	n->how = WIN_LOAD_BY_NAME;
	n->got.path = xstrdup(WTK "v11.2\\bin\\cudart64_110.dll");
	n = VEC_PUSH(&fw->needs);
	n->dll = xstrdup("cudnn64_8.dll");
	n->how = WIN_LOAD_BY_NAME;
	n->got.error = 126;
	p = VEC_PUSH(&wf->pythons);
	p->kind = WIN_PY_VENV;
	p->dir = xstrdup("Users/ana/venv");
	p->exe = xstrdup("Users/ana/venv/Scripts/python.exe");
	p->site_packages = xstrdup("Users/ana/venv/Lib/site-packages");
	p->path_index = -1;
	add_fw(p, "torch", "2.4.1+cu124", "12.4");
}

/* The names spelt as Windows may spell them. */
static char env_name[] = "ComputerName=WINBOX";
static char env_path[] = "Path=C:\\Windows\\system32;" WTK "v11.2\\bin\\;"
    WTK "v12.6\\bin;C:\\Python310;;c:\\windows\\System32";
static char env_cuda[] = "CUDA_PATH=" WTK "v12.6";
static char env_venv[] = "VIRTUAL_ENV=C:\\Users\\ana\\venv";
static char *const envp[] = { env_name, env_path, env_cuda, env_venv, NULL };

static const char *
known(const struct fact_str *f)
{
	return fact_known(f) ? f->value : "(not known)";
}

static void
test_facts(void)
{
	struct win_facts wf;
	struct facts *f;
	const struct py_env *e;
	const struct framework_fact *fw;

	machine(&wf, "560.94");
	f = winbridge_facts(&wf, envp, NULL);
	ok(f->windows, "the facts say they are Windows'");
	is_str(known(&f->host.name), "WINBOX", "host name: COMPUTERNAME, its name without case");
	is_str(known(&f->host.os), "Windows", "os: Windows without the registry's name");
	is_int(f->host.kernel.state, FACT_UNKNOWN, "kernel: not known");
	is_str(f->host.kernel.why, "not on Windows", "... saying why");

	is_int(f->gpus.n, 1, "the NVIDIA adapter only");
	is_str(known(&f->gpus.v[0].name), "NVIDIA GeForce RTX 4090", "... its DriverDesc");
	is_int(f->gpus.v[0].vendor_id * 0x10000 + f->gpus.v[0].device_id,
	    0x10de2684, "... vendor and device from MatchingDeviceId");
	is_int(f->gpus.v[0].link_width.state, FACT_UNKNOWN, "... no PCIe link made up");

	is_int(f->driver.libs.n, 1, "nvcuda.dll as the userspace driver");
	is_str(f->driver.libs.v[0].name, "libcuda", "... in libcuda's role");
	is_str(f->driver.libs.v[0].version, "560.94", "... its version");
	is_str(f->driver.libs.v[0].path, "C:\\Windows\\System32\\nvcuda.dll", "... a Windows path");
	is_str(known(&f->driver.module_version), "560.94", "the adapter's DriverVersion as the kernel driver's");
	is_int(f->driver.secure_boot.state, FACT_UNKNOWN, "Secure Boot: not known");
	is_int(f->driver.nvidia_loaded.state, FACT_UNKNOWN, "the module's state: not known");

	is_int(f->toolkits.n, 2, "two toolkits");
	is_str(f->toolkits.v[0].root, WTK "v12.6", "... roots as Windows paths");
	is_str(f->toolkits.v[0].release, "12.6.2", "... version.json's release");
	is_str(f->toolkits.v[1].release, "11.2", "... else the directory's");
	ok(strv_contains(&f->toolkits.v[0].found_via, "CUDA_PATH") &&
	    strv_contains(&f->toolkits.v[1].found_via, "CUDA_PATH_V11_2"),
	    "... each found via the variable naming it");
	ok(strv_contains(&f->toolkits.v[1].found_via, "PATH") &&
	    !strv_contains(&f->toolkits.v[0].found_via, "PATH"),
	    "... PATH: the one whose bin comes first (a trailing \\ ignored)");
	is_str(f->toolkits.v[0].cudart.n == 1 ? f->toolkits.v[0].cudart.v[0].dir : NULL,
	    WTK "v12.6\\bin", "... cudart's directory");

	is_int(f->cudnn.n, 2, "two cuDNN copies");
	is_str(known(&f->cudnn.v[0].version), "9.5.1", "... the header's version");
	is_str(known(&f->cudnn.v[1].lib_version), "8", "... else the DLL name's major");
	is_int(f->cudnn.v[0].libraries.n, 2, "... the DLL and its parts");

	is_int(f->env.path.entries.n, 6, "PATH's entries, the empty one too");
	ok(f->env.path.entries.v[4].empty, "... the empty one");
	is_int(f->env.path.entries.v[5].duplicate_of, 0, "... a duplicate told without case");
	ok(f->env.var[ENV_CUDA_PATH].set && !f->env.var[ENV_CUDA_HOME].set,
	    "CUDA_PATH set, CUDA_HOME not");
	ok(!f->env.ld_library_path.set, "no LD_LIBRARY_PATH on Windows");

	is_int(f->python_envs.n, 2, "two Pythons");
	e = &f->python_envs.v[0];
	is_str(e->prefix, "C:\\Python310", "... prefixes as Windows paths");
	fw = &e->frameworks.v[1];
	is_str(fw->cuda, "11.2", "TensorFlow's 64_112 is CUDA 11.2");
	is_str(fw->cudnn, "8", "... 64_8 cuDNN 8");
	ok(!framework_loads(fw), "... cudnn64_8.dll not found: it does not load");
	ok(f->python_envs.v[1].active && !e->active, "the venv VIRTUAL_ENV names is the active one");
	fw = &f->python_envs.v[1].frameworks.v[0];
	is_str(fw->name, "pytorch", "torch is the matrix's pytorch");
	is_str(fw->variant, "cu124", "... its variant");
	ok(fw->gpu == FW_GPU_YES && framework_gpu_ready(fw), "... a GPU build that loads");
	is_int(e->frameworks.v[0].gpu, FW_GPU_NO, "a +cpu build is CPU-only");

	diagnose_annotate(f, mx);
	is_str(known(&f->driver.max_cuda), "12.6", "annotate: 560.94 runs CUDA 12.6");
	is_str(known(&f->gpus.v[0].cc), "8.9", "annotate: the RTX 4090 is 8.9");
	facts_free(f);
	win_facts_free(&wf);
}

/* 560.30 meets CUDA 12.6's Linux minimum (560.28.03), not its Windows
 * one (560.76): a Windows driver is read against the Windows column. */
static void
test_windows_column(void)
{
	struct win_facts wf;
	struct facts *f, *lf;

	machine(&wf, "560.30");
	f = winbridge_facts(&wf, NULL, "Windows 11 Pro, build 26100");
	diagnose_annotate(f, mx);
	is_str(known(&f->driver.max_cuda), "12.5", "560.30 on Windows: CUDA 12.5");
	lf = facts_new("/", false);
	fact_set(&lf->driver.module_version, "560.30", "test");
	diagnose_annotate(lf, mx);
	is_str(known(&lf->driver.max_cuda), "12.6", "... on Linux: 12.6");
	is_str(known(&f->host.os), "Windows 11 Pro, build 26100", "os: the registry's name");
	is_int(f->host.name.state, FACT_UNKNOWN, "no COMPUTERNAME: the name is not known");
	facts_free(lf);
	facts_free(f);
	win_facts_free(&wf);
}

/* A Linux machine with the versions of the Windows one. */
static struct facts *
linux_twin(void)
{
	struct facts *f = facts_new("/", false);
	struct driver_lib *l = VEC_PUSH(&f->driver.libs);
	struct gpu_fact *g = VEC_PUSH(&f->gpus);
	struct toolkit_fact *t;
	struct cudnn_fact *c;

	fact_set(&f->driver.module_version, "560.94", "/proc/driver/nvidia/version");
	l->name = xstrdup("libcuda");
	l->path = xstrdup("/usr/lib/x86_64-linux-gnu/libcuda.so.560.94");
	l->version = xstrdup("560.94");
	fact_set(&f->gpus_state, "read", "/sys/bus/pci/devices");
	g->vendor_id = 0x10de;
	g->device_id = 0x2684;
	fact_set(&g->name, "NVIDIA GeForce RTX 4090", "pci.ids");
	t = VEC_PUSH(&f->toolkits);
	t->root = xstrdup("/usr/local/cuda-11.2");
	t->release = xstrdup("11.2");
	strv_push(&t->found_via, "PATH");
	t = VEC_PUSH(&f->toolkits);
	t->root = xstrdup("/usr/local/cuda-12.6");
	t->release = xstrdup("12.6.2");
	c = VEC_PUSH(&f->cudnn);
	fact_set(&c->version, "9.5.1", "cudnn_version.h");
	c = VEC_PUSH(&f->cudnn);
	fact_set(&c->lib_version, "8", "libcudnn.so.8");
	f->env.var[ENV_CUDA_PATH].set = true;
	f->env.var[ENV_CUDA_PATH].value = xstrdup(WTK "v12.6");
	return f;
}

static void
test_spec(void)
{
	static const char *const shared[] = {
		"driver.version", "driver.branch", "driver.module",
		"driver.max_cuda", "gpu.count", "gpu.models",
		"toolkit.versions", "toolkit.default", "cudnn.versions",
		"env.CUDA_PATH",
	};
	struct win_facts wf;
	struct facts *f, *lf;
	json_t *wi, *li;
	const char *key;
	json_t *v;
	size_t extra = 0;

	machine(&wf, "560.94");
	f = winbridge_facts(&wf, envp, NULL);
	lf = linux_twin();
	diagnose_annotate(f, mx);
	diagnose_annotate(lf, mx);
	wi = spec_items_build(f);
	li = spec_items_build(lf);
	for (size_t i = 0; i < sizeof shared / sizeof shared[0]; i++) {
		const char *w = json_string_value(json_object_get(wi, shared[i]));

		ok(w != NULL, "spec: %s is there", shared[i]);
		is_str(w, json_string_value(json_object_get(li, shared[i])),
		    "... as on Linux with the same versions");
	}
	is_str(json_string_value(json_object_get(wi, "framework.C:\\Python310.tensorflow")),
	    "2.10.1 cuda 11.2", "framework items keyed by the Windows path");
	is_str(json_string_value(json_object_get(wi,
	    "framework.C:\\Users\\ana\\venv.torch")), "2.4.1 cuda 12.4",
	    "... torch's release without +cu124");
	json_object_foreach(wi, key, v)
		if (strncmp(key, "framework.", 10) != 0 &&
		    json_object_get(li, key) == NULL)
			extra++;
	is_int(extra, 0, "no item Linux would not have (LD_LIBRARY_PATH, LD_PRELOAD)");
	json_decref(wi);
	json_decref(li);
	facts_free(lf);
	facts_free(f);
	win_facts_free(&wf);
}

static char bad_name[] = "COMPUTERNAME=bad\xff";
static char *const bad_envp[] = { bad_name, NULL };

static void
test_edges(void)
{
	struct win_facts wf;
	struct facts *f;
	char *s;
	json_t *items;

	memset(&wf, 0, sizeof wf);
	wf.drive = 'D';
	f = winbridge_facts(&wf, bad_envp, NULL);
	is_str(f->root, "D:\\", "an empty machine on D: bridges");
	is_str(f->host.name.value, "bad\xef\xbf\xbd", "... a name that is not UTF-8 mended");
	is_int(f->gpus_state.state, FACT_UNKNOWN, "... the registry unread: GPUs not known");
	is_int(f->driver.libs.n, 0, "... no nvcuda.dll, no libcuda");
	diagnose_annotate(f, mx);
	items = spec_items_build(f);
	is_int(json_object_size(items), 0, "... and its spec has no item");
	json_decref(items);
	facts_free(f);

	is_str(s = winbridge_tf_cuda("64_118"), "11.8", "64_118 is 11.8");
	free(s);
	is_str(s = winbridge_tf_cuda("64_120"), "12.0", "64_120 is 12.0");
	free(s);
	is_str(s = winbridge_tf_cuda("11.2"), "11.2", "11.2 stays");
	free(s);
	ok(winbridge_tf_cuda("64_1") == NULL && winbridge_tf_cuda("64_1x2") == NULL &&
	    winbridge_tf_cuda("cuda") == NULL && winbridge_tf_cuda(NULL) == NULL,
	    "other forms are not known");
}

/* verify's runs (win/cmd_verify.c) into facts->verify, as the shared
 * presenters read them. */
static void
test_verify(void)
{
	struct win_facts wf;
	struct wv_run runs[2] = {
		{ .kind = WV_DRIVER, .lib = "C:\\Windows\\System32\\nvcuda.dll",
		  .how = WV_WORKS, .last_step = "cuCtxSynchronize" },
		{ .kind = WV_CUDNN, .lib = WTK "v12.6\\bin\\cudnn64_9.dll",
		  .how = WV_CRASHED, .code = 0xc0000005ul,
		  .status_name = "STATUS_ACCESS_VIOLATION" },
	};
	json_t *recs = json_loads("[{\"check\":\"init\",\"ok\":true},"
	    "{\"check\":\"fma\",\"device\":0,\"ok\":true,\"gflops\":1.5},"
	    "{\"check\":\"saxpy\",\"device\":0,\"ok\":false,\"code\":700,"
	    "\"name\":\"CUDA_ERROR_ILLEGAL_ADDRESS\"}]", 0, NULL);
	struct winbridge_vrun in[2] = { { &runs[0], recs }, { &runs[1], NULL } };
	const struct verify_facts *vf;
	const struct verify_record *rec;
	struct facts *f;
	double v;

	memset(&wf, 0, sizeof wf);
	wf.drive = 'C';
	f = winbridge_facts(&wf, NULL, NULL);
	winbridge_verify(f, in, 2, "C:\\cw\\cudawiz-verify.exe", 30.0, true,
	    12.5);
	vf = &f->verify;
	is_int(vf->state, VERIFY_STATE_RAN, "verify: the runs bridged, state ran");
	is_str(vf->helper, "C:\\cw\\cudawiz-verify.exe", "... the helper");
	ok(vf->quick && vf->timeout_s == 30.0 && vf->ms == 12.5,
	    "... quick, the timeout and the time");
	is_int(vf->runs.n, 2, "... two runs");
	is_int(vf->runs.v[0].kind, VERIFY_DRIVER, "... the driver's");
	is_int(vf->runs.v[0].outcome, VERIFY_DONE, "... which reached its end");
	is_str(vf->runs.v[0].last_step, "cuCtxSynchronize", "... its last step");
	is_int(vf->runs.v[0].records.n, 3, "... its three records");
	rec = verify_find(&vf->runs.v[0], "fma", 0);
	ok(rec != NULL && rec->ok == 1 && verify_num(rec, "gflops", &v) &&
	    v == 1.5, "... fma on device 0 with its figure");
	rec = verify_find(&vf->runs.v[0], "saxpy", 0);
	ok(rec != NULL && rec->ok == 0 && rec->has_code && rec->code == 700 &&
	    rec->name != NULL && strcmp(rec->name,
	    "CUDA_ERROR_ILLEGAL_ADDRESS") == 0, "... saxpy failed, its code");
	is_int(vf->runs.v[1].kind, VERIFY_CUDNN, "the cuDNN run");
	ok(vf->runs.v[1].outcome == VERIFY_SIGNALLED &&
	    vf->runs.v[1].signal == 0 && vf->runs.v[1].records.n == 0,
	    "... crashed: signalled with no signal, no records");
	json_decref(recs);
	facts_free(f);
	win_facts_free(&wf);
}

int
main(void)
{
	mx = matrix_embedded();
	test_facts();
	test_windows_column();
	test_spec();
	test_edges();
	test_verify();
	matrix_free(mx);
	return done_testing();
}
