/* Issue 23's Windows diagnosis: each framework's DLLs resolved the way it
 * loads them (src/winprobe/winneeds.c) over fixture trees laid out as
 * drive C:, and the findings the Windows rules (src/diagnose/
 * rules_windows.c) draw from them with the embedded matrix: TensorFlow
 * 2.10 wanting cudart64_110.dll beside CUDA 12.6 only, beside CUDA 11.2
 * off PATH, an extension module's import found only through PATH on
 * Python 3.8+, an x86 copy ahead on PATH, a copy ahead of CUDA_PATH's,
 * a driver too old for CUDA 11.2 on Windows, and a healthy machine. The
 * DLLs are minimal PE images of the right machine, so the probe reads
 * them as the loader would take them. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagnose/rules_windows.h"
#include "lib/tap.h"
#include "lib/winfx.h"
#include "matrix/matrix.h"
#include "util/xalloc.h"
#include "winload/winname.h"
#include "winprobe/winprobe.h"

/* The checks after a missing finding are left out (its own check
 * failed already); the TAP plan comes at the end. */
#define skip(n, why)	printf("# skipped %d checks: %s\n", (n), (why))
#define diag(...)	(printf("# "), printf(__VA_ARGS__), printf("\n"))

static struct matrix *mx;

/* -------------------------------------------------------- the findings */

static void
dump(const struct findings *fs)
{
	for (size_t i = 0; i < fs->n; i++) {
		diag("%s: %s", finding_code_name(fs->v[i].code), fs->v[i].detail);
		for (size_t j = 0; j < fs->v[i].evidence.n; j++)
			diag("  evidence: %s", fs->v[i].evidence.v[j]);
		for (size_t j = 0; j < fs->v[i].fix.n; j++)
			diag("  fix: %s", fs->v[i].fix.v[j]);
	}
}

/* The probe and the rules over sr; WINNEEDS_DUMP=1 prints the findings
 * whole. */
static void
run(struct sysroot *sr, const char *const *env, const char *driver,
    struct winfx_run *r)
{
	winfx_run(r, sr, env, driver, mx);
	if (getenv("WINNEEDS_DUMP") != NULL)
		dump(&r->fs);
}

static const struct win_need *
need_of(const struct win_facts *wf, const char *fw, const char *dll)
{
	for (size_t i = 0; i < wf->pythons.n; i++)
		for (size_t j = 0; j < wf->pythons.v[i].frameworks.n; j++) {
			const struct win_framework *f = &wf->pythons.v[i].frameworks.v[j];

			if (strcmp(f->name, fw) != 0)
				continue;
			for (size_t k = 0; k < f->needs.n; k++)
				if (strcmp(f->needs.v[k].dll, dll) == 0)
					return &f->needs.v[k];
		}
	return NULL;
}

/* The n-th finding of code (from 0), or NULL. */
static const struct finding *
nth(const struct findings *fs, enum finding_code code, size_t n)
{
	for (size_t i = 0; i < fs->n; i++)
		if (fs->v[i].code == code && n-- == 0)
			return &fs->v[i];
	return NULL;
}

static size_t
count(const struct findings *fs, enum finding_code code)
{
	size_t n = 0;

	for (size_t i = 0; i < fs->n; i++)
		n += fs->v[i].code == code;
	return n;
}

/* Whether a line of sv contains part. */
static bool
has_line(const struct strv *sv, const char *part)
{
	for (size_t i = 0; i < sv->n; i++)
		if (strstr(sv->v[i], part) != NULL)
			return true;
	return false;
}

/* The index of the line equal to line; -1: none. */
static long
line_at(const struct strv *sv, const char *line)
{
	for (size_t i = 0; i < sv->n; i++)
		if (strcmp(sv->v[i], line) == 0)
			return (long)i;
	return -1;
}

/* ----------------------------------------------------------- the cases */

/* CUDA 12.6 alone, CUDA_PATH naming it; TensorFlow 2.10 wants 11.x. */
static void
test_cuda12_only(void)
{
	struct sysroot *sr = winfx_phase("cuda12");
	const struct win_need *n;
	const struct finding *f;
	struct winfx_run r;

	winfx_machine_cuda12();
	run(sr, winfx_cuda12_env, "560.94", &r);

	n = need_of(&r.wf, "tensorflow", "cudart64_110.dll");
	ok(n != NULL, "TensorFlow's cudart64_110.dll is a need");
	if (n == NULL) {
		skip(8, "no need");
		winfx_run_free(&r);
		sysroot_free(sr);
		return;
	}
	is_int(n->how, WIN_LOAD_BY_NAME, "loaded by name (LoadLibraryExW)");
	ok(n->got.path == NULL, "not found");
	is_int(n->got.error, 126, "ERROR_MOD_NOT_FOUND");
	ok(has_line(&n->searched, "app_dir C:\\Program Files\\Python310"),
	    "python.exe's directory is the application directory");
	ok(has_line(&n->searched, "path[0] " WINFX_WTK "v12.6\\bin"), "PATH is searched");

	f = nth(&r.fs, FINDING_SONAME_NOT_FOUND, 0);
	ok(f != NULL && f->severity == SEV_ERROR, "SONAME_NOT_FOUND, an error");
	if (f == NULL) {
		dump(&r.fs);
		skip(9, "no finding");
	} else {
		is_str(f->subject, "tensorflow 2.10.1 in C:\\Program Files\\Python310 needs cudart64_110.dll",
		    "the subject names the framework, the install and the DLL");
		ok(has_line(&f->evidence, "CUDA 12.6 at " WINFX_WTK "v12.6: its runtime is cudart64_12.dll"),
		    "the evidence names the CUDA 12.6 runtime that is here");
		ok(has_line(&f->evidence, "CUDA_PATH=" WINFX_WTK "v12.6"), "and CUDA_PATH");
		ok(has_line(&f->fix, "install the CUDA 11.2 toolkit and cuDNN 8.1"),
		    "fix: CUDA 11.2 and cuDNN 8.1, the matrix's build of TensorFlow 2.10");
		ok(line_at(&f->fix, "$env:PATH = '" WINFX_WTK "v11.2\\bin;' + $env:PATH") > 0,
		    "a PowerShell line puts its bin first on PATH for the session");
		ok(line_at(&f->fix, "set \"PATH=" WINFX_WTK "v11.2\\bin;%PATH%\"") > 0,
		    "a cmd.exe line does the same");
		{
			long ps = line_at(&f->fix, "$env:PATH = '" WINFX_WTK "v11.2\\bin;' + $env:PATH");
			long cm = line_at(&f->fix, "set \"PATH=" WINFX_WTK "v11.2\\bin;%PATH%\"");

			ok(ps > 0 && strncmp(f->fix.v[ps - 1], "# PowerShell:", 13) == 0 &&
			    cm > 0 && strncmp(f->fix.v[cm - 1], "rem cmd.exe:", 12) == 0,
			    "each shell's line comes after a comment naming the shell");
		}
		ok(has_line(&f->fix, "Set-ItemProperty -Path 'HKCU:\\Environment' -Name Path "
		    "-Type ExpandString -Value ('" WINFX_WTK "v11.2\\bin;' + (Get-Item "
		    "'HKCU:\\Environment').GetValue('Path', '', 'DoNotExpandEnvironmentNames'))"),
		    "and for the user, in the registry as REG_EXPAND_SZ with its variable "
		    "entries unexpanded");
		ok(!has_line(&f->fix, "SetEnvironmentVariable"),
		    "... not through [Environment], which expands them and writes REG_SZ");
		ok(has_line(&f->fix, "no later TensorFlow uses the GPU there"),
		    "it says no TensorFlow after 2.10 has native Windows GPU support");
	}
	f = nth(&r.fs, FINDING_FRAMEWORK_CUDA_MISMATCH, 0);
	ok(f != NULL && strstr(f->detail, "built with CUDA 11.2") != NULL &&
	    strstr(f->detail, "cudart64_12.dll (CUDA 12.6)") != NULL,
	    "FRAMEWORK_CUDA_MISMATCH: built with 11.2, only 12.6's runtime here");
	is_int(count(&r.fs, FINDING_SONAME_NOT_FOUND), 2, "cudnn64_8.dll is not found either");
	is_int(count(&r.fs, FINDING_DRIVER_TOO_OLD), 0, "driver 560.94 runs CUDA 12.6 and 11.2");
	winfx_run_free(&r);
	sysroot_free(sr);
}

/* CUDA 11.2 installed but not on PATH: its bin is the fix. */
static void
test_cuda112_off_path(void)
{
	static const char *const env[] = {
		"PATH=" WINFX_WTK "v12.6\\bin;C:\\Windows\\System32",
		"CUDA_PATH=" WINFX_WTK "v12.6",
		NULL,
	};
	struct sysroot *sr = winfx_phase("off-path");
	const struct finding *f;
	struct winfx_run r;

	winfx_dll64(WINFX_TK "v12.6/bin/cudart64_12.dll");
	winfx_cuda112();
	winfx_tf210();
	run(sr, env, "560.94", &r);

	f = nth(&r.fs, FINDING_SONAME_NOT_FOUND, 0);
	ok(f != NULL && strcmp(f->subject,
	    "tensorflow 2.10.1 in C:\\Program Files\\Python310 needs cudart64_110.dll") == 0,
	    "cudart64_110.dll is not found");
	if (f == NULL) {
		dump(&r.fs);
		skip(4, "no finding");
	} else {
		ok(has_line(&f->evidence, WINFX_WTK "v11.2\\bin holds cudart64_110.dll"),
		    "the evidence names CUDA 11.2's bin, which holds it");
		ok(line_at(&f->fix, "$env:PATH = '" WINFX_WTK "v11.2\\bin;' + $env:PATH") > 0,
		    "fix: that bin first on PATH (PowerShell)");
		ok(line_at(&f->fix, "set \"PATH=" WINFX_WTK "v11.2\\bin;%PATH%\"") > 0,
		    "fix: that bin first on PATH (cmd.exe)");
		ok(!has_line(&f->fix, "install the CUDA"), "no install: it is here");
	}
	is_int(count(&r.fs, FINDING_FRAMEWORK_CUDA_MISMATCH), 0,
	    "no version mismatch: a toolkit here has the runtime it wants");
	winfx_run_free(&r);
	sysroot_free(sr);
}

/* CUDA 11.2 installed, its cudart on PATH, but no cuDNN on the drive:
 * only cuDNN is to install, into that toolkit's bin (NVIDIA's Windows
 * guide for the zip), never the toolkit again. */
static void
test_cudnn_missing(void)
{
	static const char *const env[] = {
		"PATH=" WINFX_WTK "v11.2\\bin;C:\\Windows\\System32",
		"CUDA_PATH=" WINFX_WTK "v11.2",
		NULL,
	};
	struct sysroot *sr = winfx_phase("no-cudnn");
	const struct finding *f;
	struct winfx_run r;

	winfx_dll64(WINFX_TK "v11.2/bin/cudart64_110.dll");
	winfx_tf210();
	run(sr, env, "560.94", &r);

	is_int(count(&r.fs, FINDING_SONAME_NOT_FOUND), 1,
	    "only cudnn64_8.dll is not found");
	f = nth(&r.fs, FINDING_SONAME_NOT_FOUND, 0);
	if (f == NULL || strstr(f->subject, "cudnn64_8.dll") == NULL) {
		dump(&r.fs);
		skip(3, "no cudnn64_8.dll finding");
	} else {
		ok(has_line(&f->fix, "for CUDA 11.2: copy the bin\\cudnn*.dll "
		    "files of its Windows zip"),
		    "cudnn64_8.dll: cuDNN to install, into the CUDA 11.2 here");
		ok(line_at(&f->fix, "$env:PATH = '" WINFX_WTK "v11.2\\bin;' + $env:PATH") > 0,
		    "... that toolkit's bin first on PATH");
		ok(!has_line(&f->fix, "install the CUDA"),
		    "... and not the toolkit, which is here");
	}
	winfx_run_free(&r);
	sysroot_free(sr);
}

/* An extension module importing cudart statically, on Python 3.10, with
 * the CUDA bin on PATH only: the import's search skips PATH. */
static void
test_python38(void)
{
	static const char *const env[] = {
		"PATH=C:\\Windows\\System32;C:\\cuda101\\bin",
		NULL,
	};
	static const char *const imports[] = { "KERNEL32.dll", "cudart64_101.dll" };
	struct sysroot *sr = winfx_phase("py38");
	const struct win_need *n;
	const struct finding *f;
	struct winfx_run r;

	winfx_dll64("cuda101/bin/cudart64_101.dll");
	winfx_text("Program Files/Python310/python.exe", "x");
	winfx_text(WINFX_SITE "tensorflow_gpu-2.1.0.dist-info/METADATA", "x");
	winfx_pe(WINFX_SITE "tensorflow/python/_pywrap_tensorflow_internal.pyd", 0x8664, imports, 2);
	run(sr, env, "560.94", &r);

	n = need_of(&r.wf, "tensorflow", "cudart64_101.dll");
	ok(n != NULL && n->how == WIN_LOAD_PYD_IMPORT, "the .pyd's import of cudart64_101.dll is a need");
	ok(need_of(&r.wf, "tensorflow", "KERNEL32.dll") == NULL, "its other imports are not");
	if (n != NULL) {
		ok(n->got.path == NULL && n->got.error == 126,
		    "the Python 3.8+ import search does not find it");
		ok(n->has_std && n->std.path != NULL && n->std.via == DLLSRC_PATH &&
		    strcmp(n->std.path, "C:\\cuda101\\bin\\cudart64_101.dll") == 0,
		    "the standard order finds it through PATH");
	} else {
		skip(2, "no need");
	}
	f = nth(&r.fs, FINDING_SONAME_NOT_FOUND, 0);
	ok(f != NULL, "SONAME_NOT_FOUND");
	if (f == NULL) {
		dump(&r.fs);
		skip(4, "no finding");
	} else {
		ok(has_line(&f->evidence, "extension-module search (Python >= 3.8): not found (error 126)"),
		    "the evidence names the extension-module search");
		ok(has_line(&f->evidence, "standard search order (PATH searched): found at C:\\cuda101\\bin\\cudart64_101.dll (PATH entry 2)"),
		    "and the standard search, which PATH serves");
		ok(line_at(&f->fix, "import os; os.add_dll_directory(r\"C:\\cuda101\\bin\")") > 0,
		    "fix: os.add_dll_directory with the directory");
		ok(line_at(&f->fix, "import os; os.add_dll_directory(r\"C:\\cuda101\\bin\")") > 0 &&
		    has_line(&f->fix, "# Python: before the first import of tensorflow"),
		    "after a comment saying it goes before the import");
	}
	winfx_run_free(&r);
	sysroot_free(sr);

	/* Not on PATH at all, in CUDA 11.2's bin: os.add_dll_directory too. */
	{
		static const char *const env2[] = { "PATH=C:\\Windows\\System32", NULL };
		static const char *const imp2[] = { "cudart64_110.dll" };

		sr = winfx_phase("py38-holder");
		winfx_dll64(WINFX_TK "v11.2/bin/cudart64_110.dll");
		winfx_text("Program Files/Python310/python.exe", "x");
		winfx_pe(WINFX_SITE "tensorflow/python/_pywrap_tensorflow_internal.pyd", 0x8664, imp2, 1);
		run(sr, env2, "560.94", &r);
		f = nth(&r.fs, FINDING_SONAME_NOT_FOUND, 0);
		ok(f != NULL && line_at(&f->fix, "import os; os.add_dll_directory(r\"" WINFX_WTK "v11.2\\bin\")") > 0 &&
		    !has_line(&f->fix, "$env:PATH"),
		    "an import's DLL off PATH: os.add_dll_directory, not PATH (which the import does not search)");
		if (f == NULL)
			dump(&r.fs);
		winfx_run_free(&r);
		sysroot_free(sr);
	}

	/* The same on Python 3.7: the standard order, PATH served it. */
	sr = winfx_phase("py37");
	winfx_dll64("cuda101/bin/cudart64_101.dll");
	winfx_text("Program Files/Python37/python.exe", "x");
	winfx_pe("Program Files/Python37/Lib/site-packages/tensorflow/python/_pywrap_tensorflow_internal.pyd",
	    0x8664, imports, 2);
	run(sr, env, "560.94", &r);
	n = need_of(&r.wf, "tensorflow", "cudart64_101.dll");
	ok(n != NULL && n->got.path != NULL && n->got.via == DLLSRC_PATH && !n->has_std,
	    "Python 3.7 loads the import by the standard order: found on PATH");
	is_int(count(&r.fs, FINDING_SONAME_NOT_FOUND), 0, "no finding on Python 3.7");
	winfx_run_free(&r);
	sysroot_free(sr);
}

/* An x86 cudart64_110.dll ahead of CUDA 11.2's on PATH. */
static void
test_x86_shadow(void)
{
	static const char *const env[] = {
		"PATH=C:\\tools32\\bin;" WINFX_WTK "v11.2\\bin",
		"CUDA_PATH=" WINFX_WTK "v11.2",
		NULL,
	};
	struct sysroot *sr = winfx_phase("x86");
	const struct win_need *n;
	const struct finding *f;
	struct winfx_run r;

	winfx_pe("tools32/bin/cudart64_110.dll", 0x14c, NULL, 0);
	winfx_cuda112();
	winfx_tf210();
	run(sr, env, "560.94", &r);

	n = need_of(&r.wf, "tensorflow", "cudart64_110.dll");
	ok(n != NULL && n->got.path != NULL &&
	    strcmp(n->got.path, WINFX_WTK "v11.2\\bin\\cudart64_110.dll") == 0,
	    "the x64 copy in CUDA 11.2's bin is loaded");
	ok(n != NULL && n->passed_over.n == 1 &&
	    strcmp(n->passed_over.v[0], "C:\\tools32\\bin\\cudart64_110.dll") == 0,
	    "the x86 copy ahead of it was passed over");
	f = nth(&r.fs, FINDING_LIB_SHADOWED, 0);
	ok(f != NULL && f->severity == SEV_WARNING, "LIB_SHADOWED, a warning");
	if (f == NULL) {
		dump(&r.fs);
		skip(2, "no finding");
	} else {
		ok(has_line(&f->evidence, "C:\\tools32\\bin\\cudart64_110.dll: x86"),
		    "the evidence names the x86 copy");
		ok(line_at(&f->fix, "$env:PATH = '" WINFX_WTK "v11.2\\bin;' + $env:PATH") > 0,
		    "fix: the loaded copy's directory first on PATH");
	}
	is_int(findings_count(&r.fs, SEV_ERROR), 0, "no error");
	winfx_run_free(&r);
	sysroot_free(sr);
}

/* Another x64 copy on PATH ahead of the CUDA_PATH toolkit's. */
static void
test_path_shadow(void)
{
	static const char *const env[] = {
		"PATH=C:\\Apps\\Old's\\bin;" WINFX_WTK "v11.2\\bin",
		"CUDA_PATH=" WINFX_WTK "v11.2",
		NULL,
	};
	struct sysroot *sr = winfx_phase("shadow");
	const struct finding *f;
	struct winfx_run r;

	winfx_dll64("Apps/Old's/bin/cudart64_110.dll");
	winfx_cuda112();
	winfx_tf210();
	run(sr, env, "560.94", &r);
	f = nth(&r.fs, FINDING_LIB_SHADOWED, 0);
	ok(f != NULL && strstr(f->detail, "from C:\\Apps\\Old's\\bin\\cudart64_110.dll") != NULL,
	    "LIB_SHADOWED: PATH finds another copy before CUDA_PATH's");
	if (f == NULL) {
		dump(&r.fs);
		skip(1, "no finding");
	} else {
		ok(has_line(&f->evidence, "the CUDA_PATH toolkit's copy: " WINFX_WTK "v11.2\\bin\\cudart64_110.dll"),
		    "the evidence names the CUDA_PATH toolkit's copy");
	}
	winfx_run_free(&r);
	sysroot_free(sr);
}

/* Driver against CUDA 11.2 on Windows; the matrix's Windows column. */
static void
test_driver(void)
{
	static const char *const env[] = {
		"PATH=" WINFX_WTK "v11.2\\bin",
		"CUDA_PATH=" WINFX_WTK "v11.2",
		NULL,
	};
	struct sysroot *sr = winfx_phase("driver");
	const struct finding *f;
	struct winfx_run r;

	winfx_cuda112();
	winfx_tf210();

	is_str(matrix_cuda_min_driver(mx, "11.2", MATRIX_WINDOWS, NULL), "460.82",
	    "the matrix: CUDA 11.2 GA needs 460.82 on Windows");
	run(sr, env, "451.82", &r);
	is_int(count(&r.fs, FINDING_DRIVER_TOO_OLD), 2,
	    "451.82: DRIVER_TOO_OLD for the toolkit and for TensorFlow");
	f = nth(&r.fs, FINDING_DRIVER_TOO_OLD, 1);
	if (f == NULL) {
		dump(&r.fs);
		skip(4, "no finding");
	} else {
		is_str(f->subject, "tensorflow 2.10.1 in C:\\Program Files\\Python310",
		    "the subject: TensorFlow's install");
		ok(has_line(&f->evidence, "CUDA 11.2 needs driver >= 460.82 on Windows"),
		    "the evidence gives the Windows minimum");
		ok(has_line(&f->evidence, "any CUDA 11 runtime needs at least 452.39 on Windows"),
		    "and the floor of minor-version compatibility");
		ok(has_line(&f->fix, "driver 460.82 or newer"), "fix: that driver");
	}
	winfx_run_free(&r);

	/* 452.39 is CUDA 11's minor-version compatibility floor on Windows:
	 * it runs 11.2's runtime (all but PTX JIT), as the Linux rule has it. */
	run(sr, env, "452.39", &r);
	is_int(count(&r.fs, FINDING_DRIVER_TOO_OLD), 0,
	    "452.39: minor-version compatibility carries CUDA 11.2");
	winfx_run_free(&r);
	sysroot_free(sr);
}

/* CUDA 11.2 with cuDNN on PATH, a new driver, and torch with its own
 * DLLs: nothing wrong. */
static void
test_healthy(void)
{
	struct sysroot *sr = winfx_phase("healthy");
	const struct win_need *n;
	struct winfx_run r;

	winfx_machine_healthy();
	winfx_text(WINFX_SITE "torch/version.py", "__version__ = '2.1.2+cu121'\ncuda = '12.1'\n");
	winfx_dll64(WINFX_SITE "torch/lib/cudart64_12.dll");
	winfx_dll64(WINFX_SITE "torch/lib/cudnn64_8.dll");
	run(sr, winfx_healthy_env, "560.94", &r);

	n = need_of(&r.wf, "tensorflow", "cudnn64_8.dll");
	ok(n != NULL && n->got.path != NULL && n->got.via == DLLSRC_PATH &&
	    n->got.path_index == 0, "TensorFlow's cudnn64_8.dll: PATH's first entry");
	ok(n != NULL && n->has_py38 && n->py38.path == NULL,
	    "an extension module's search would not find it (stored beside)");
	n = need_of(&r.wf, "torch", "cudart64_12.dll");
	ok(n != NULL && n->how == WIN_LOAD_TORCH_LIB && n->got.via == DLLSRC_USER_DIR &&
	    n->got.path != NULL && strcmp(n->got.path,
	    "C:\\Program Files\\Python310\\Lib\\site-packages\\torch\\lib\\cudart64_12.dll") == 0,
	    "torch's cudart64_12.dll from torch\\lib, added by os.add_dll_directory");
	is_int(r.fs.n, 0, "no finding at all");
	if (r.fs.n != 0)
		dump(&r.fs);
	winfx_run_free(&r);

	/* Without the matrix the DLL rules still speak, the driver's do not. */
	{
		char **envp = winfx_env(winfx_healthy_env);
		struct win_facts wf;
		struct findings fs = { 0 };

		winprobe_run(sr, envp, NULL, &wf);
		wf.driver.version = xstrdup("100.00");
		rules_windows(&wf, NULL, &fs);
		is_int(fs.n, 0, "without the matrix: no driver finding");
		findings_free(&fs);
		win_facts_free(&wf);
		winfx_env_free(envp);
	}
	sysroot_free(sr);

	/* CUDA 12.6 alone, without the matrix: build_info's "64_112" and
	 * "64_8" say what to install. */
	{
		static const char *const env12[] = {
			"PATH=" WINFX_WTK "v12.6\\bin", NULL,
		};
		char **envp = winfx_env(env12);
		struct win_facts wf;
		struct findings fs = { 0 };
		const struct finding *f;

		sr = winfx_phase("nomatrix");
		winfx_dll64(WINFX_TK "v12.6/bin/cudart64_12.dll");
		winfx_tf210();
		winprobe_run(sr, envp, NULL, &wf);
		rules_windows(&wf, NULL, &fs);
		f = nth(&fs, FINDING_SONAME_NOT_FOUND, 0);
		ok(f != NULL && has_line(&f->fix, "install the CUDA 11.2 toolkit and cuDNN 8 for it") &&
		    line_at(&f->fix, "$env:PATH = '" WINFX_WTK "v11.2\\bin;' + $env:PATH") > 0,
		    "without the matrix: CUDA 11.2 and cuDNN 8 from build_info");
		ok(f != NULL && !has_line(&f->fix, "pip install"),
		    "and no pip line: without the catalogue nothing is known published");
		f = nth(&fs, FINDING_FRAMEWORK_CUDA_MISMATCH, 0);
		ok(f != NULL && strstr(f->detail, "built with CUDA 11.2") != NULL,
		    "FRAMEWORK_CUDA_MISMATCH says 11.2 from build_info");
		findings_free(&fs);
		win_facts_free(&wf);
		winfx_env_free(envp);
		sysroot_free(sr);
	}
}

/* Quoting for each shell. */
static void
test_quoting(void)
{
	static const char *const env[] = {
		"PATH=C:\\Windows\\System32",
		"CUDA_PATH_V11_2=C:\\opt\\cu%112",
		NULL,
	};
	struct sysroot *sr;
	const struct finding *f;
	struct winfx_run r;
	char *q;

	q = winname_windows_path('D', "Program Files/x");
	is_str(q, "D:\\Program Files\\x", "a tree path as a Windows path");
	free(q);
	q = winname_windows_path(0, "");
	is_str(q, "C:\\", "the root, drive C by default");
	free(q);
	q = rw_ps_quote("C:\\it's here");
	is_str(q, "'C:\\it''s here'", "PowerShell: single quotes, a quote doubled");
	free(q);

	sr = winfx_phase("quoting");
	winfx_dll64("opt/cu%112/bin/cudart64_110.dll");
	winfx_tf210();
	run(sr, env, "560.94", &r);
	f = nth(&r.fs, FINDING_SONAME_NOT_FOUND, 0);
	ok(f != NULL && line_at(&f->fix, "$env:PATH = 'C:\\opt\\cu%112\\bin;' + $env:PATH") > 0,
	    "a '%%' path: the PowerShell line");
	ok(f != NULL && !has_line(&f->fix, "set \"PATH=") &&
	    has_line(&f->fix, "rem cmd.exe: this path holds a double quote or a percent sign"),
	    "no cmd.exe set line, and words saying why");
	if (f == NULL)
		dump(&r.fs);
	winfx_run_free(&r);
	sysroot_free(sr);

	{
		static const char *const env2[] = {
			"PATH=C:\\Windows\\System32",
			"CUDA_PATH_V11_2=C:\\opt\\it's cuda",
			NULL,
		};

		sr = winfx_phase("apostrophe");
		winfx_dll64("opt/it's cuda/bin/cudart64_110.dll");
		winfx_tf210();
		run(sr, env2, "560.94", &r);
		f = nth(&r.fs, FINDING_SONAME_NOT_FOUND, 0);
		ok(f != NULL && line_at(&f->fix, "$env:PATH = 'C:\\opt\\it''s cuda\\bin;' + $env:PATH") > 0,
		    "an apostrophe in the path is doubled in PowerShell's quotes");
		ok(f != NULL && line_at(&f->fix, "set \"PATH=C:\\opt\\it's cuda\\bin;%PATH%\"") > 0,
		    "and kept as it is inside cmd.exe's quotes");
		if (f == NULL)
			dump(&r.fs);
		winfx_run_free(&r);
		sysroot_free(sr);
	}
}

/* The display adapters the registry lists (winprobe_add_gpu, as the
 * Windows program's hook fills them) and the rules on them, over
 * hand-built facts. */
static bool
gpu_hook(void *arg, struct win_facts *f)
{
	const char *dv = arg;

	winprobe_add_gpu(f, "NVIDIA GeForce RTX 4090",
	    "pci\\ven_10de&dev_2684&subsys_16f310de", dv, "NVIDIA");
	return true;
}

static void
gpu_facts(struct win_facts *wf, const char *nvcuda_fv)
{
	char buf[32];

	memset(wf, 0, sizeof *wf);
	wf->drive = 'C';
	wf->cuda_path_toolkit = -1;
	if (nvcuda_fv != NULL && winprobe_driver_version(nvcuda_fv, buf, sizeof buf)) {
		wf->driver.state = WIN_NVCUDA_NVIDIA;
		wf->driver.nvcuda.path = xstrdup("Windows/System32/nvcuda.dll");
		wf->driver.nvcuda.file_version = xstrdup(nvcuda_fv);
		wf->driver.version = xstrdup(buf);
	}
}

static void
test_gpus(void)
{
	struct win_facts wf;
	struct findings fs = { 0 };
	const struct finding *f;
	struct winprobe_opts wo = { .gpu_registry = gpu_hook,
		.gpu_registry_arg = (void *)"32.0.15.6094" };
	struct sysroot *sr;

	/* Through the hook: the ids without case, 560.94 from DriverVersion. */
	sr = winfx_phase("gpus");
	winprobe_run(sr, NULL, &wo, &wf);
	ok(wf.gpus_read && wf.gpus.n == 1, "the hook's adapter is listed");
	ok(wf.gpus.n == 1 && wf.gpus.v[0].vendor == 0x10de &&
	    wf.gpus.v[0].device == 0x2684, "vendor 10de, device 2684 from MatchingDeviceId");
	is_str(wf.gpus.n == 1 ? wf.gpus.v[0].version : NULL, "560.94",
	    "DriverVersion 32.0.15.6094 is driver 560.94");
	win_facts_free(&wf);
	sysroot_free(sr);

	/* No hook: nothing read, nothing said. */
	gpu_facts(&wf, NULL);
	rules_windows(&wf, NULL, &fs);
	is_int(count(&fs, FINDING_NO_NVIDIA_GPU), 0, "registry not read: no NO_NVIDIA_GPU");
	findings_free(&fs);
	win_facts_free(&wf);

	/* Only an Intel adapter. */
	gpu_facts(&wf, NULL);
	wf.gpus_read = true;
	winprobe_add_gpu(&wf, "Intel(R) UHD Graphics 770",
	    "PCI\\VEN_8086&DEV_A780", "31.0.101.4502", "Intel Corporation");
	rules_windows(&wf, NULL, &fs);
	f = nth(&fs, FINDING_NO_NVIDIA_GPU, 0);
	ok(f != NULL && strstr(f->detail, "none of them NVIDIA's") != NULL,
	    "an Intel adapter alone: NO_NVIDIA_GPU");
	ok(f != NULL && has_line(&f->evidence, "Intel(R) UHD Graphics 770 (PCI 8086:a780"),
	    "... the adapter in its evidence");
	ok(f != NULL && has_line(&f->fix, "Win32_VideoController"),
	    "... a PowerShell line lists the adapters");
	findings_free(&fs);
	/* Microsoft Basic Display Adapter (no vendor) may hide an NVIDIA GPU. */
	winprobe_add_gpu(&wf, "Microsoft Basic Display Adapter", "PCI\\CC_0300",
	    "10.0.22621.1", "Microsoft");
	rules_windows(&wf, NULL, &fs);
	is_int(count(&fs, FINDING_NO_NVIDIA_GPU), 0,
	    "an adapter of unknown vendor besides: nothing said");
	findings_free(&fs);
	win_facts_free(&wf);

	/* NVIDIA's adapter at 560.94, nvcuda.dll the same: nothing. */
	gpu_facts(&wf, "32.0.15.6094");
	wf.gpus_read = true;
	winprobe_add_gpu(&wf, "Intel(R) UHD Graphics 770",
	    "PCI\\VEN_8086&DEV_A780", "31.0.101.4502", "Intel Corporation");
	gpu_hook((void *)"32.0.15.6094", &wf);
	rules_windows(&wf, NULL, &fs);
	is_int(fs.n, 0, "NVIDIA's adapter and nvcuda.dll both 560.94: no finding");
	findings_free(&fs);
	win_facts_free(&wf);

	/* Adapter 566.03, nvcuda.dll 560.94: a half-done update. */
	gpu_facts(&wf, "32.0.15.6094");
	wf.gpus_read = true;
	gpu_hook((void *)"32.0.15.6603", &wf);
	rules_windows(&wf, NULL, &fs);
	f = nth(&fs, FINDING_DRIVER_LIBRARY_MISMATCH, 0);
	ok(f != NULL && strstr(f->detail, "version 566.03") != NULL &&
	    strstr(f->detail, "(nvcuda.dll) is version 560.94") != NULL,
	    "adapter 566.03, nvcuda.dll 560.94: DRIVER_LIBRARY_MISMATCH");
	ok(f != NULL && has_line(&f->fix, "reinstall NVIDIA's driver"),
	    "... the fix: reinstall the driver");
	is_int(count(&fs, FINDING_NO_NVIDIA_GPU), 0, "... and no NO_NVIDIA_GPU");
	findings_free(&fs);
	win_facts_free(&wf);

	/* A DriverVersion that gives no driver version: not compared. */
	gpu_facts(&wf, "32.0.15.6094");
	wf.gpus_read = true;
	gpu_hook((void *)"garbage", &wf);
	ok(wf.gpus.n == 1 && wf.gpus.v[0].version == NULL &&
	    strcmp(wf.gpus.v[0].file_version, "garbage") == 0,
	    "an unparsable DriverVersion: kept, no version");
	rules_windows(&wf, NULL, &fs);
	is_int(fs.n, 0, "... and nothing compared");
	findings_free(&fs);
	/* The cap. */
	for (int i = 0; i < WINFACTS_GPUS_MAX + 5; i++)
		gpu_hook((void *)"32.0.15.6094", &wf);
	is_int((long long)wf.gpus.n, WINFACTS_GPUS_MAX, "at most WINFACTS_GPUS_MAX adapters");
	win_facts_free(&wf);
}

int
main(void)
{
	winfx_begin("test_winneeds");
	mx = matrix_embedded();
	test_cuda12_only();
	test_cuda112_off_path();
	test_cudnn_missing();
	test_python38();
	test_x86_shadow();
	test_path_shadow();
	test_driver();
	test_healthy();
	test_quoting();
	test_gpus();
	matrix_free(mx);
	winfx_end();
	return done_testing();
}
