/* The Windows probe (src/winprobe/) over fixture trees laid out as drive
 * C:, with names spelt in cases a Linux tree keeps and NTFS ignores; and
 * NVIDIA's driver version rule, the Windows path mapping and the
 * case-blind names (src/winload/winname.c) it stands on. The DLLs here
 * are not images (real ones: tests/cli/winprobe-mingw.sh), which makes
 * each an unreadable-file fact. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/tap.h"
#include "lib/winfx.h"
#include "util/xalloc.h"
#include "winload/winname.h"
#include "winprobe/winprobe.h"

static const char *
ver(const char *fv)
{
	static char buf[32];

	return winprobe_driver_version(fv, buf, sizeof buf) ? buf : "(none)";
}

static void
test_driver_rule(void)
{
	char small[4];

	is_str(ver("32.0.15.6094"), "560.94", "32.0.15.6094 is driver 560.94");
	is_str(ver("31.0.15.3623"), "536.23", "31.0.15.3623 is 536.23");
	is_str(ver("27.21.14.5671"), "456.71", "27.21.14.5671 is 456.71");
	is_str(ver("30.0.14.7141"), "471.41", "30.0.14.7141 is 471.41");
	is_str(ver("26.21.14.4120"), "441.20", "26.21.14.4120 is 441.20 (a trailing 0 kept)");
	is_str(ver("32.0.15.6590"), "565.90", "32.0.15.6590 is 565.90");
	is_str(ver("10.18.13.5330"), "353.30", "10.18.13.5330 is 353.30");
	is_str(ver("31.0.15.1601"), "516.01", "a fourth part under 1000 is written with four digits: 516.01");
	is_str(ver("32.0.15.6094.1"), "(none)", "five parts: no version");
	is_str(ver("32.0.15"), "(none)", "three parts: no version");
	is_str(ver("32.0.15.60940"), "(none)", "a fourth part of five digits: no version");
	is_str(ver("32.0.15.6094x"), "(none)", "trailing junk: no version");
	is_str(ver("a.b.c.d"), "(none)", "not numbers: no version");
	is_str(ver("32.0.99999.6094"), "(none)", "a part past 65535: no version");
	is_str(ver(""), "(none)", "empty: no version");
	ok(!winprobe_driver_version(NULL, small, sizeof small), "NULL: no version");
	ok(!winprobe_driver_version("32.0.15.6094", small, sizeof small),
	    "a buffer too small is refused, not overrun");
}

static void
test_tree_path(void)
{
	const char *why;
	char *p;

	p = winprobe_tree_path('C', "C:\\Program Files\\NVIDIA\\", &why);
	is_str(p, "Program Files/NVIDIA", "C:\\Program Files\\NVIDIA\\ maps into the tree");
	free(p);
	p = winprobe_tree_path('C', "c:/x/y", &why);
	is_str(p, "x/y", "a lower-case drive and '/' separators map too");
	free(p);
	p = winprobe_tree_path('C', "C:\\", &why);
	is_str(p, "", "the drive's root is the tree's root");
	free(p);
	p = winprobe_tree_path('C', "D:\\cuda", &why);
	ok(p == NULL && why != NULL, "another drive is refused with a reason");
	p = winprobe_tree_path('C', "\\\\server\\share", &why);
	ok(p == NULL && why != NULL, "a network path is refused with a reason");
	p = winprobe_tree_path('C', "cuda\\bin", &why);
	ok(p == NULL && why != NULL, "a relative path is refused with a reason");
}

static void
test_winname(struct sysroot *sr)
{
	char *out = NULL;

	ok(winname_eq("CUDART64_110.DLL", "cudart64_110.dll"), "names compare without case");
	ok(!winname_eq("cudart64_110.dll", "cudart64_11.dll"), "a shorter name differs");
	ok(winname_eqn("CUDA_PATH_V11_8=x", 9, "cuda_path"), "a prefix of n bytes compares whole");
	ok(!winname_eqn("CUDA_PATH", 4, "cuda_path"), "…and not a prefix of the other");
	winfx_text("Some Dir/Sub/file.txt", "x");
	is_int(winname_resolve(sr, "some dir/SUB/FILE.TXT", &out), 0, "a path resolves without case");
	is_str(out, "Some Dir/Sub/file.txt", "as the tree spells it");
	free(out);
	is_int(winname_resolve(sr, "some dir/./sub/../Sub//file.txt", &out), 0,
	    "'.', '..' and empty components are folded");
	is_str(out, "Some Dir/Sub/file.txt", "to the same file");
	free(out);
	is_int(winname_resolve(sr, "some dir/none", &out), ENOENT, "a missing component is ENOENT");
	ok(out == NULL, "with no path");
}

static const struct win_python *
python_at(const struct win_facts *f, const char *dir)
{
	for (size_t i = 0; i < f->pythons.n; i++)
		if (strcmp(f->pythons.v[i].dir, dir) == 0)
			return &f->pythons.v[i];
	return NULL;
}

static const struct win_framework *
fw_of(const struct win_python *p, const char *name)
{
	for (size_t i = 0; p != NULL && i < p->frameworks.n; i++)
		if (strcmp(p->frameworks.v[i].name, name) == 0)
			return &p->frameworks.v[i];
	return NULL;
}

static const struct win_cudavar *
var_of(const struct win_facts *f, const char *name)
{
	for (size_t i = 0; i < f->cudavars.n; i++)
		if (strcmp(f->cudavars.v[i].name, name) == 0)
			return &f->cudavars.v[i];
	return NULL;
}

static const struct win_cudnn *
cudnn_at(const struct win_facts *f, const char *dir)
{
	for (size_t i = 0; i < f->cudnn.n; i++)
		if (strcmp(f->cudnn.v[i].dir, dir) == 0)
			return &f->cudnn.v[i];
	return NULL;
}

static bool
noted(const struct win_facts *f, const char *part)
{
	for (size_t i = 0; i < f->notes.n; i++)
		if (strstr(f->notes.v[i], part) != NULL)
			return true;
	return false;
}

/* The rest indexes the toolkits: stop here when they are not there. */
#define BAIL_OUT_TOOLKITS do { win_facts_free(&f); winfx_env_free(envp); return; } while (0)

#define TK "Program Files/nvidia gpu computing toolkit/cuda/V11.8"

static void
test_machine(struct sysroot *sr)
{
	struct win_facts f;
	const struct win_python *p;
	const struct win_framework *fw;
	const struct win_cudavar *v;
	const struct win_cudnn *c;
	char big[WINFACTS_TEXT_CAP + 512];
	static const char *const env[] = {
		"Path=C:\\Users\\bo\\.venvs\\uv1\\Scripts;C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.8\\bin;;relative\\bin;C:\\cudnn9\\bin;C:\\Users\\bo\\AppData\\Local\\Microsoft\\WindowsApps",
		"cuda_path=C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.8",
		"CUDA_PATH_V12_1=C:\\opt\\cuda121",
		"CUDA_PATH_V10_2=D:\\cuda",
		"CUDA_PATH_V9=C:\\nothing",
		"CUDA_PATHX=C:\\nothing",
		"USERPROFILE=C:\\Users\\bo",
		"VIRTUAL_ENV=C:\\work\\proj\\.venv",
		"Conda_Prefix=C:\\shared\\envs\\ml",
		NULL,
	};
	char **envp = winfx_env(env);

	/* The driver: a text file where nvcuda.dll should be; nvml in both places. */
	winfx_text("WINDOWS/system32/NVCUDA.DLL", "not an image\n");
	winfx_text("WINDOWS/system32/nvml.dll", "not an image either\n");
	winfx_text("Program Files/NVIDIA Corporation/NVSMI/nvml.dll", "x");
	/* A toolkit in lower case, damaged version.json, a cudart that is not an image. */
	winfx_text(TK "/version.json", "{ \"cuda\" : { \"name\" : \"CUDA SDK\" } }");
	winfx_text(TK "/bin/CUDART64_110.DLL", "junk");
	winfx_text(TK "/bin/cudnn64_8.dll", "junk");
	winfx_text(TK "/bin/cudnn_ops_infer64_8.dll", "junk");
	winfx_text(TK "/include/cudnn_version.h",
	    "#define CUDNN_MAJOR  8\n#define CUDNN_MINOR 6\n#define CUDNN_PATCHLEVEL 0\n"
	    "#define CUDNN_VERSION (CUDNN_MAJOR * 1000 + CUDNN_MINOR * 100 + CUDNN_PATCHLEVEL)\n");
	winfx_dir("Program Files/nvidia gpu computing toolkit/cuda/notaversion");
	/* A toolkit only a variable names. */
	winfx_dir("opt/cuda121/bin");
	/* cuDNN 9's parts alone on PATH, no cudnn64_9.dll, no header. */
	winfx_text("cudnn9/bin/cudnn_graph64_9.dll", "junk");
	winfx_text("cudnn9/bin/cudnn_ops64_9.dll", "junk");
	winfx_text("cudnn9/bin/cudnn.txt", "not a DLL");
	/* conda and an env, versions from their DLLs. */
	winfx_text("Users/bo/Miniconda3/python.exe", "x");
	winfx_text("Users/bo/Miniconda3/python311.dll", "x");
	winfx_text("Users/bo/Miniconda3/envs/tf/python.exe", "x");
	winfx_text("Users/bo/Miniconda3/envs/tf/python39.dll", "x");
	winfx_text("Users/bo/Miniconda3/envs/tf/conda-meta/python-3.9.18-h4de0772_0_cpython.json", "{}");
	winfx_text("Users/bo/Miniconda3/envs/tf/conda-meta/python_abi-3.9-4_cp39.json", "{}");
	/* An activated venv and conda env outside any profile. */
	winfx_text("work/proj/.venv/pyvenv.cfg", "version = 3.12.1\n");
	winfx_text("work/proj/.venv/Scripts/python.exe", "x");
	winfx_text("shared/envs/ml/python.exe", "x");
	winfx_text("shared/envs/ml/python310.dll", "x");
	winfx_text("Users/bo/Miniconda3/envs/tf/Lib/site-packages/tensorflow/python/platform/build_info.py",
	    "build_info = {'cuda_version': '64_112', 'cudnn_version': '64_8', "
	    "'is_cuda_build': True, 'cudart_dll_name': 'cudart64_110.dll', "
	    "'cudnn_dll_name': 'cudnn64_8.dll'}\n");
	winfx_text("Users/bo/Miniconda3/envs/tf/Lib/site-packages/tensorflow_gpu-2.6.0.dist-info/METADATA", "x");
	winfx_text("Users/bo/Miniconda3/envs/broken/python.exe", "x");
	winfx_text("Users/bo/Miniconda3/envs/broken/Lib/site-packages/tensorflow/__init__.py", "x");
	winfx_text("Users/bo/Miniconda3/envs/broken/Lib/site-packages/torch/version.py/x", "a directory");
	winfx_dir("Users/bo/Miniconda3/envs/noexe/Lib");
	/* A python.org install in Program Files, torch for the CPU, a long version.py. */
	winfx_text("Program Files/Python312/python.exe", "x");
	memset(big, '#', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	memcpy(big, "__version__ = '2.3.0+cpu'\ncuda = None\n", 37);
	winfx_text("Program Files/Python312/Lib/site-packages/torch/version.py", big);
	winfx_text("Program Files/Python312/Lib/site-packages/torch/lib/torch_cpu.dll", "x");
	/* A uv venv on PATH: version_info only. */
	winfx_text("Users/bo/.venvs/uv1/pyvenv.cfg", "home = C:\\Python312\nversion_info = 3.12.4\n");
	winfx_text("Users/bo/.venvs/uv1/Scripts/python.exe", "x");
	winfx_text("Users/Public/miniconda3/python.exe", "x");
	winfx_text("Users/bo/AppData/Local/Microsoft/WindowsApps/python.exe", "");
	/* A FIFO where build_info.py should be: refused, never opened. */
	winfx_text("Users/bo/Miniconda3/envs/fifo/python.exe", "x");
	winfx_dir("Users/bo/Miniconda3/envs/fifo/Lib/site-packages/tensorflow/python/platform");
	{
		char fifo[PATH_MAX * 2];

		snprintf(fifo, sizeof fifo, "%s/%s", winfx_root(),
		    "Users/bo/Miniconda3/envs/fifo/Lib/site-packages/tensorflow/python/platform/build_info.py");
		if (mkfifo(fifo, 0644) != 0)
			perror(fifo);
	}

	winprobe_run(sr, envp, NULL, &f);

	is_str(win_nvcuda_state_name(f.driver.state), "unreadable", "a text nvcuda.dll is unreadable");
	is_str(f.driver.nvcuda.path, "WINDOWS/system32/NVCUDA.DLL", "found whatever the case");
	ok(f.driver.nvcuda.error != NULL && strstr(f.driver.nvcuda.error, "NVCUDA.DLL") != NULL,
	    "its reason names it");
	ok(f.driver.version == NULL, "no driver version from it");
	is_str(f.driver.nvml.path, "WINDOWS/system32/nvml.dll", "System32's nvml.dll before NVSMI's");

	is_int(f.toolkits.n, 2, "two toolkits: the standard one and the one a variable names");
	if (f.toolkits.n != 2)
		BAIL_OUT_TOOLKITS;
	is_str(f.toolkits.v[0].dir, TK, "the standard one as the tree spells it");
	is_str(f.toolkits.v[0].dir_version, "11.8", "version from V11.8");
	ok(f.toolkits.v[0].json_version == NULL && f.toolkits.v[0].json_error != NULL,
	    "a version.json without cuda.version is a fact with a reason");
	ok(f.toolkits.v[0].cudart.path != NULL && f.toolkits.v[0].cudart.error != NULL,
	    "a cudart that is not an image: present, with the reason");
	ok(!f.toolkits.v[0].from_env, "the standard one is not from the environment only");
	is_str(f.toolkits.v[1].dir, "opt/cuda121", "CUDA_PATH_V12_1's toolkit");
	ok(f.toolkits.v[1].from_env && f.toolkits.v[1].dir_version == NULL,
	    "from the environment, no version from its name");
	is_int(f.cuda_path_toolkit, 0, "cuda_path (any case) names the standard one");

	is_int(f.cudavars.n, 3, "CUDA_PATH, _V12_1, _V10_2: not _V9 or CUDA_PATHX");
	v = var_of(&f, "CUDA_PATH_V10_2");
	ok(v != NULL && v->dir == NULL && v->toolkit == -1 && v->why != NULL &&
	    strcmp(v->name_version, "10.2") == 0, "a variable on drive D: is a fact with its reason");
	v = var_of(&f, "CUDA_PATH_V12_1");
	ok(v != NULL && v->toolkit == 1 && strcmp(v->name_version, "12.1") == 0,
	    "_V12_1 names toolkit 1");

	c = cudnn_at(&f, TK "/bin");
	ok(c != NULL && c->where == WIN_CUDNN_TOOLKIT && c->index == 0, "cuDNN in the toolkit's bin");
	is_str(c != NULL ? c->header_version : NULL, "8.6.0", "its header beside it: 8.6.0");
	ok(c != NULL && c->parts.n == 1 && strcmp(c->parts.v[0], "cudnn_ops_infer64_8.dll") == 0,
	    "cuDNN 8's split part listed");
	ok(c != NULL && c->dll.path != NULL && c->dll.error != NULL, "its cudnn64_8.dll damaged: a reason");
	c = cudnn_at(&f, "cudnn9/bin");
	ok(c != NULL && c->where == WIN_CUDNN_PATH && c->index == 4 && c->dll.path == NULL &&
	    c->parts.n == 2 && c->header_version == NULL,
	    "cuDNN 9's parts alone on PATH (entry 4): no cudnn64_9.dll, no header");
	is_int(f.cudnn.n, 2, "no other cuDNN: the toolkit's bin on PATH is not counted twice");

	p = python_at(&f, "Users/bo/Miniconda3");
	ok(p != NULL && p->kind == WIN_PY_CONDA, "Miniconda3 (any case) is conda");
	is_str(p != NULL ? p->version : NULL, "3.11", "its version from python311.dll");
	ok(p != NULL && p->site_packages == NULL, "no Lib/site-packages: none");
	p = python_at(&f, "Users/bo/Miniconda3/envs/tf");
	ok(p != NULL && p->kind == WIN_PY_CONDA_ENV, "its env tf");
	is_str(p != NULL ? p->version : NULL, "3.9.18", "version 3.9.18 from conda-meta, before python39.dll");
	fw = fw_of(p, "tensorflow");
	ok(fw != NULL, "TensorFlow in it");
	is_str(fw != NULL ? fw->version : NULL, "2.6.0", "version from tensorflow_gpu's dist-info");
	is_str(fw != NULL ? fw->cuda_version : NULL, "64_112", "build_info as a dict: cuda_version");
	is_str(fw != NULL ? fw->cudnn_version : NULL, "64_8", "cudnn_version");
	ok(fw != NULL && fw->wants.n == 2 && strcmp(fw->wants.v[0], "cudart64_110.dll") == 0 &&
	    strcmp(fw->wants.v[1], "cudnn64_8.dll") == 0, "the DLLs it will load");
	p = python_at(&f, "Users/bo/Miniconda3/envs/broken");
	fw = fw_of(p, "tensorflow");
	ok(fw != NULL && fw->error != NULL && fw->cuda_version == NULL,
	    "TensorFlow without build_info.py: a fact with its reason");
	fw = fw_of(p, "torch");
	ok(fw != NULL && fw->error != NULL && fw->version == NULL,
	    "a torch/version.py that is a directory: a reason, no crash");
	fw = fw_of(python_at(&f, "Users/bo/Miniconda3/envs/fifo"), "tensorflow");
	ok(fw != NULL && fw->error != NULL && strstr(fw->error, "build_info.py") != NULL &&
	    strstr(fw->error, sysroot_strerror(SYSROOT_ENOTREG)) != NULL,
	    "a FIFO for build_info.py: refused with its reason, not waited on");
	ok(python_at(&f, "Users/bo/Miniconda3/envs/noexe") == NULL, "an env without python.exe is none");
	ok(python_at(&f, "Users/Public/miniconda3") == NULL, "Users/Public is nobody's profile");

	p = python_at(&f, "Program Files/Python312");
	ok(p != NULL && p->kind == WIN_PY_PYTHON_ORG, "Program Files/Python312");
	is_str(p != NULL ? p->version : NULL, "3.12", "version from its name");
	fw = fw_of(p, "torch");
	is_str(fw != NULL ? fw->version : NULL, "2.3.0+cpu", "torch's version from a long version.py");
	ok(fw != NULL && fw->cuda_version == NULL && fw->bundled.n == 0,
	    "a CPU build: no CUDA, no CUDA DLLs bundled");

	p = python_at(&f, "Users/bo/.venvs/uv1");
	ok(p != NULL && p->kind == WIN_PY_VENV && p->path_index == 0, "the uv venv on PATH entry 0");
	is_str(p != NULL ? p->version : NULL, "3.12.4", "its version_info");
	is_str(p != NULL ? p->home : NULL, "C:\\Python312", "its home");
	p = python_at(&f, "work/proj/.venv");
	ok(p != NULL && p->kind == WIN_PY_VENV && p->path_index == -1 &&
	    p->version != NULL && strcmp(p->version, "3.12.1") == 0, "the venv VIRTUAL_ENV names");
	p = python_at(&f, "shared/envs/ml");
	ok(p != NULL && p->kind == WIN_PY_CONDA_ENV && p->version != NULL &&
	    strcmp(p->version, "3.10") == 0, "the conda env Conda_Prefix (any case) names");
	is_int(f.pythons.n, 8, "eight installs: not the Store's alias in WindowsApps");
	ok(noted(&f, "PEP 514"), "the registry not read is noted");
	win_facts_free(&f);
	winfx_env_free(envp);
}

static void
registry(void *arg, struct strv *dirs)
{
	(void)arg;
	strv_push(dirs, "C:\\tools\\py39");
	strv_push(dirs, "C:\\Missing");
	strv_push(dirs, "E:\\Python310");
}

static void
test_edges(struct sysroot *sr)
{
	struct win_facts f;
	struct winprobe_opts opts = { 'c', registry, NULL };
	char name[64];
	static const char *const env[] = { "CUDA_PATH=relative", "=C:=C:\\", NULL };
	char **envp = winfx_env(env);

	winprobe_run(sr, NULL, NULL, &f);
	ok(f.drive == 'C' && f.driver.state == WIN_NVCUDA_ABSENT && f.toolkits.n == 0 &&
	    f.pythons.n == 0 && f.cudnn.n == 0, "an empty drive and no environment: nothing, no crash");
	win_facts_free(&f);

	winfx_text("Tools/Py39/python.exe", "x");
	winfx_text("Tools/Py39/python39.dll", "x");
	for (int i = 0; i < WINFACTS_TOOLKITS_MAX + 6; i++) {
		snprintf(name, sizeof name, "Program Files/NVIDIA GPU Computing Toolkit/CUDA/v%d.0", i);
		winfx_dir(name);
	}
	winprobe_run(sr, envp, &opts, &f);
	is_int(f.toolkits.n, WINFACTS_TOOLKITS_MAX, "toolkits stop at the limit");
	ok(noted(&f, "CUDA toolkits"), "…and say so");
	ok(!noted(&f, "PEP 514"), "a registry hook given: nothing noted");
	ok(f.pythons.n == 1 && f.pythons.v[0].kind == WIN_PY_REGISTRY &&
	    strcmp(f.pythons.v[0].dir, "Tools/Py39") == 0,
	    "the hook's install found (not the missing one, not on drive E:)");
	ok(f.cudavars.n == 1 && f.cudavars.v[0].why != NULL && f.cuda_path_toolkit == -1,
	    "a relative CUDA_PATH is a fact with its reason");
	win_facts_free(&f);
	winfx_env_free(envp);
}

int
main(void)
{
	struct sysroot *sr;

	winfx_begin("test_winprobe");
	test_driver_rule();
	test_tree_path();
	sr = winfx_phase("names");
	test_winname(sr);
	sysroot_free(sr);
	sr = winfx_phase("edges");
	test_edges(sr);
	sysroot_free(sr);
	sr = winfx_phase("machine");
	test_machine(sr);
	sysroot_free(sr);
	winfx_end();
	return done_testing();
}
