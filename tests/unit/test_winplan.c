/* The Windows environment plan (src/envplan/winplan.c) over Windows
 * facts built by hand as the probe fills them (winprobe/winfacts.h):
 * TensorFlow 2.10 wanting cudart64_110.dll with CUDA 12.6 named by
 * CUDA_PATH and CUDA 11.2 installed off PATH; cudnn64_8.dll in a cuDNN
 * directory of its own; --toolkit choosing; --keep-other-cuda; nothing
 * to change; no installed toolkit holding the DLL (the words of what to
 * install, from the embedded matrix); Python 3.8+'s .pyd import, which
 * PATH cannot fix. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "envplan/winplan.h"
#include "envscript/envscript.h"
#include "lib/tap.h"
#include "matrix/matrix.h"
#include "util/xalloc.h"

#define TK	"Program Files/NVIDIA GPU Computing Toolkit/CUDA/"
#define WTK	"C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\"

static struct matrix *mx;

static void
facts_init(struct win_facts *f)
{
	memset(f, 0, sizeof *f);
	f->drive = 'C';
	f->cuda_path_toolkit = -1;
}

/* A toolkit at TK "v<ver>" with bin/<cudart>; its index. */
static long
add_toolkit(struct win_facts *f, const char *ver, const char *cudart)
{
	struct win_toolkit *t = VEC_PUSH(&f->toolkits);

	t->dir = xasprintf(TK "v%s", ver);
	t->dir_version = xstrdup(ver);
	t->cudart.path = xasprintf(TK "v%s/bin/%s", ver, cudart);
	t->cudart.machine = 0x8664;
	return (long)f->toolkits.n - 1;
}

static void
add_cudnn(struct win_facts *f, const char *dir, const char *dll)
{
	struct win_cudnn *c = VEC_PUSH(&f->cudnn);

	c->where = WIN_CUDNN_INSTALLER;
	c->index = -1;
	c->dir = xstrdup(dir);
	c->dll.path = xasprintf("%s/%s", dir, dll);
	c->dll.machine = 0x8664;
}

/* A python.org 3.10 with TensorFlow 2.10.1; its framework. */
static struct win_framework *
add_tf(struct win_facts *f)
{
	struct win_python *p;
	struct win_framework *fw;

	p = VEC_PUSH(&f->pythons);
	p->dir = xstrdup("Python310");
	p->version = xstrdup("3.10");
	p->path_index = -1;
	fw = VEC_PUSH(&p->frameworks);
	fw->name = xstrdup("tensorflow");
	fw->version = xstrdup("2.10.1");
	fw->cuda_version = xstrdup("64_112");
	fw->cudnn_version = xstrdup("64_8");
	return fw;
}

/* A need of fw: found at got (a Windows path, via PATH), or not. */
static struct win_need *
add_need(struct win_framework *fw, const char *dll, enum win_load_how how,
    const char *got)
{
	struct win_need *n = VEC_PUSH(&fw->needs);

	n->dll = xstrdup(dll);
	n->how = how;
	n->got.path = got != NULL ? xstrdup(got) : NULL;
	n->got.via = DLLSRC_PATH;
	n->got.error = got != NULL ? 0 : 126;
	return n;
}

static const char *
joined(const struct strv *sv)
{
	static char buf[4096];

	buf[0] = '\0';
	for (size_t i = 0; i < sv->n; i++)
		snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s",
		    i > 0 ? "|" : "", sv->v[i]);
	return buf;
}

struct run {
	struct env_plan		p;
	struct winplan_report	r;
	char			*err;
	int			 rc;
};

static void
plan(struct run *x, const struct win_facts *f, const char *toolkit, bool keep)
{
	struct winplan_opts o = { toolkit, keep };

	x->err = NULL;
	x->rc = winplan_build(f, mx, &o, &x->p, &x->r, &x->err);
}

static void
run_free(struct run *x)
{
	env_plan_free(&x->p);
	winplan_report_free(&x->r);
	free(x->err);
}

int
main(void)
{
	struct win_facts f;
	struct win_framework *fw;
	struct run x;
	long t126;

	mx = matrix_embedded();

	/* The cudart64_110.dll case. */
	facts_init(&f);
	t126 = add_toolkit(&f, "12.6", "cudart64_12.dll");
	(void)add_toolkit(&f, "11.2", "cudart64_110.dll");
	f.cuda_path_toolkit = t126;
	fw = add_tf(&f);
	(void)add_need(fw, "cudart64_110.dll", WIN_LOAD_BY_NAME, NULL);
	plan(&x, &f, NULL, false);
	is_int(x.rc, 0, "cudart64_110: planned");
	is_str(joined(&x.p.win_path_prepend), WTK "v11.2\\bin",
	    "... CUDA 11.2's bin first, where cudart64_110.dll is");
	is_str(joined(&x.p.win_path_remove), WTK "v12.6\\bin",
	    "... CUDA 12.6's bin out of PATH");
	ok(x.p.cuda_path.op == PLAN_VAR_SET && x.p.cuda_path.value != NULL &&
	    strcmp(x.p.cuda_path.value, WTK "v11.2") == 0,
	    "... CUDA_PATH set to CUDA 11.2 although it named 12.6");
	is_str(x.p.name, "cuda-11.2", "... the plan is named after it");
	is_str(joined(&x.r.targets), "tensorflow 2.10.1 (C:\\Python310)",
	    "... serving TensorFlow");
	ok(!x.r.nothing && x.r.unfixable.n == 0, "... nothing left unfixed");
	{
		struct script_text t;
		char *err = NULL;

		ok(script_render(&x.p, SCRIPT_CMD, "test", &t, &err) == 0 &&
		    strstr(t.text, "v11.2\\bin") != NULL,
		    "... and the cmd.exe writer renders it");
		script_text_free(&t);
		free(err);
	}
	run_free(&x);

	/* --keep-other-cuda: 12.6's bin stays. */
	plan(&x, &f, NULL, true);
	is_int((long)x.p.win_path_remove.n, 0, "--keep-other-cuda: nothing taken out");
	is_str(joined(&x.p.win_path_prepend), WTK "v11.2\\bin",
	    "... v11.2's bin still first");
	run_free(&x);

	/* --toolkit 12.6: its bin after the one TensorFlow needs; CUDA_PATH
	 * already names it. --toolkit 11 is the newest 11.x; a directory
	 * names one too; 9 none. */
	plan(&x, &f, "12.6", false);
	is_str(joined(&x.p.win_path_prepend), WTK "v11.2\\bin|" WTK "v12.6\\bin",
	    "--toolkit 12.6: v11.2's bin (needed) then v12.6's");
	ok(x.p.cuda_path.op == PLAN_VAR_KEEP, "... CUDA_PATH left: it names 12.6");
	is_int((long)x.p.win_path_remove.n, 0, "... v11.2's bin not taken out: it is needed");
	run_free(&x);
	plan(&x, &f, "11", false);
	is_str(x.p.name, "cuda-11.2", "--toolkit 11: CUDA 11.2");
	run_free(&x);
	plan(&x, &f, WTK "v11.2\\", false);
	is_str(x.p.name, "cuda-11.2", "--toolkit DIR (with a trailing '\\'): CUDA 11.2");
	run_free(&x);
	plan(&x, &f, "9", false);
	ok(x.rc == -1 && x.err != NULL && strstr(x.err, "12.6") != NULL,
	    "--toolkit 9: refused, naming what is installed");
	run_free(&x);
	win_facts_free(&f);

	/* cudnn64_8.dll in a cuDNN directory, cudart found via PATH. */
	facts_init(&f);
	t126 = add_toolkit(&f, "11.2", "cudart64_110.dll");
	f.cuda_path_toolkit = t126;
	add_cudnn(&f, "Program Files/NVIDIA/CUDNN/v8.1/bin", "cudnn64_8.dll");
	fw = add_tf(&f);
	(void)add_need(fw, "cudart64_110.dll", WIN_LOAD_BY_NAME,
	    WTK "v11.2\\bin\\cudart64_110.dll");
	(void)add_need(fw, "cudnn64_8.dll", WIN_LOAD_BY_NAME, NULL);
	plan(&x, &f, NULL, false);
	is_str(joined(&x.p.win_path_prepend),
	    "C:\\Program Files\\NVIDIA\\CUDNN\\v8.1\\bin",
	    "cudnn64_8.dll: the cuDNN directory first");
	ok(x.p.cuda_path.op == PLAN_VAR_KEEP && x.p.win_path_remove.n == 0,
	    "... no toolkit chosen: CUDA_PATH and the rest of PATH left alone");
	run_free(&x);
	win_facts_free(&f);

	/* Nothing to do: everything found. */
	facts_init(&f);
	f.cuda_path_toolkit = add_toolkit(&f, "11.2", "cudart64_110.dll");
	fw = add_tf(&f);
	(void)add_need(fw, "cudart64_110.dll", WIN_LOAD_BY_NAME,
	    WTK "v11.2\\bin\\cudart64_110.dll");
	plan(&x, &f, NULL, false);
	ok(x.rc == 0 && x.r.nothing && x.r.unfixable.n == 0 &&
	    x.p.win_path_prepend.n == 0, "everything found: nothing to change");
	run_free(&x);
	win_facts_free(&f);

	/* No installed toolkit holds it: what to install, nothing made up. */
	facts_init(&f);
	f.cuda_path_toolkit = add_toolkit(&f, "12.6", "cudart64_12.dll");
	fw = add_tf(&f);
	(void)add_need(fw, "cudart64_110.dll", WIN_LOAD_BY_NAME, NULL);
	(void)add_need(fw, "cudnn64_8.dll", WIN_LOAD_BY_NAME, NULL);
	plan(&x, &f, NULL, false);
	ok(x.rc == 0 && x.r.nothing && x.p.win_path_prepend.n == 0,
	    "no toolkit holds cudart64_110.dll: no directory made up");
	is_int((long)x.r.unfixable.n, 2, "... two needs unfixed");
	ok(x.r.unfixable.n == 2 && strstr(x.r.unfixable.v[0],
	    "install the CUDA 11.2 toolkit") != NULL,
	    "... the words: CUDA 11.2, the release it was built with");
	ok(x.r.unfixable.n == 2 && strstr(x.r.unfixable.v[1], "cuDNN 8") != NULL,
	    "... and cuDNN 8 for cudnn64_8.dll");
	run_free(&x);
	win_facts_free(&f);

	/* Python 3.8+: the .pyd imports cudart64_110.dll, which only the
	 * standard order (PATH) finds. */
	facts_init(&f);
	f.cuda_path_toolkit = add_toolkit(&f, "11.2", "cudart64_110.dll");
	fw = add_tf(&f);
	{
		struct win_need *n = add_need(fw, "cudart64_110.dll",
		    WIN_LOAD_PYD_IMPORT, NULL);

		n->importer = xstrdup("C:\\Python310\\Lib\\site-packages\\"
		    "tensorflow\\python\\_pywrap_tensorflow_internal.pyd");
		n->has_std = true;
		n->std.path = xstrdup(WTK "v11.2\\bin\\cudart64_110.dll");
		n->std.via = DLLSRC_PATH;
	}
	plan(&x, &f, NULL, false);
	ok(x.rc == 0 && x.r.nothing && x.p.win_path_prepend.n == 0,
	    "py38: a .pyd's import is not planned as a PATH change");
	ok(x.r.unfixable.n == 1 && strstr(x.r.unfixable.v[0],
	    "never searches PATH") != NULL && strstr(x.r.unfixable.v[0],
	    "os.add_dll_directory(r\"" WTK "v11.2\\bin\")") != NULL,
	    "... the report says so and gives the os.add_dll_directory line");
	run_free(&x);
	win_facts_free(&f);

	matrix_free(mx);
	return done_testing();
}
