/* The Windows guided mode's pages (src/winguide/), pure text from the
 * Windows facts and findings: the cudart64_110.dll case (TensorFlow 2.10
 * wanting CUDA 11's runtime beside CUDA 12.6 only) read by the Windows
 * probe over a fixture tree and diagnosed by the Windows rules, whose
 * Summary leads with the error; a healthy machine's; the findings
 * numbered alike on every page, a finding's detail with its fix lines
 * whole at any width; the replies; the live checks' and the script's
 * states; and the pages, in order and by title, the Linux wizard's. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/tap.h"
#include "lib/winfx.h"
#include "matrix/matrix.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "winguide/guide.h"
#include "wizard/page.h"

static struct matrix *mx;

/* ------------------------------------------------------------ helpers */

/* Line n (from 0) of text, owned; NULL past the end. */
static char *
line_of(const char *text, size_t n)
{
	const char *p = text;

	for (; n > 0 && p != NULL; n--) {
		p = strchr(p, '\n');
		if (p != NULL)
			p++;
	}
	if (p == NULL || *p == '\0')
		return NULL;
	return xstrndup(p, strcspn(p, "\n"));
}

/* The first non-empty line after line n. */
static char *
next_text_line(const char *text, size_t *n)
{
	char *l;

	while ((l = line_of(text, ++*n)) != NULL && l[0] == '\0')
		free(l);
	return l;
}

/* Whether text has a line equal to line. */
static bool
has_whole_line(const char *text, const char *line)
{
	size_t len = strlen(line);

	for (const char *p = text; p != NULL && *p != '\0';) {
		if (strncmp(p, line, len) == 0 && (p[len] == '\n' || p[len] == '\0'))
			return true;
		p = strchr(p, '\n');
		if (p != NULL)
			p++;
	}
	return false;
}

static int
widest_line(const char *text)
{
	int w = 0;

	for (const char *p = text; *p != '\0';) {
		int n = (int)strcspn(p, "\n");

		if (n > w)
			w = n;
		p += n;
		if (*p == '\n')
			p++;
	}
	return w;
}

/* A page's text; WINGUIDE_DUMP=1 prints each as a TAP comment, to read
 * the pages whole. */
static char *
page(enum wg_page p, const struct wg_in *in)
{
	char *t = wg_page_text(p, in);

	if (getenv("WINGUIDE_DUMP") != NULL)
		for (const char *l = t; *l != '\0';) {
			int n = (int)strcspn(l, "\n");

			printf("# %.*s\n", n, l);
			l += n + (l[n] == '\n');
		}
	return t;
}

/* ----------------------------------------------------------- the cases */

static void
test_cudart110(void)
{
	struct sysroot *sr = winfx_phase("cuda12");
	struct wg_state st = { 0 };
	struct wg_in in;
	struct winfx_run r;
	const struct finding *f;
	char *t, *l, *d;
	size_t n = 0, nfix = 0, longest = 0;
	bool whole = true;

	winfx_machine_cuda12();
	winfx_run(&r, sr, winfx_cuda12_env, "560.94", mx);
	sysroot_free(sr);
	in = (struct wg_in){ &r.wf, &r.fs, &st, 72 };

	/* The Summary leads with the answer. */
	t = page(WG_SUMMARY, &in);
	l = line_of(t, 0);
	ok(l != NULL && strncmp(l, "CUDA will not work as it is set up now: ",
	    strlen("CUDA will not work as it is set up now: ")) == 0 && strstr(l, " error") != NULL,
	    "the Summary's first line is the verdict with its errors: %s", l);
	free(l);
	l = next_text_line(t, &n);
	ok(l != NULL && strncmp(l, "  1. ERROR ", 11) == 0 &&
	    strstr(t, "cudart64_110.dll") != NULL &&
	    strstr(t, "cudart64_110.dll") < strstr(t, "Next:"),
	    "... then finding 1, an error, naming cudart64_110.dll before anything else: %s", l);
	free(l);
	ok(strstr(t, "'d 1'") != NULL, "... and says 'd 1' opens it");
	ok(strstr(t, "\n  1 Summary   2 GPUs and driver   3 Toolkits and cuDNN\n"
	    "  4 Python environments and frameworks   5 Environment variables\n") != NULL,
	    "... then the pages, numbered, an entry never broken");
	ok(widest_line(t) <= 72, "... every line within the width (%d)", widest_line(t));
	free(t);

	/* The findings: numbered the same on the Summary and Diagnosis. */
	t = page(WG_DIAGNOSIS, &in);
	for (size_t i = 1; i <= r.fs.n; i++) {
		char num[16];

		snprintf(num, sizeof num, "\n  %zu. ", i);
		whole = whole && strstr(t, num) != NULL;
	}
	ok(r.fs.n >= 1 && whole, "Diagnosis numbers its %zu findings from 1", r.fs.n);
	ok(strstr(t, "d 1") != NULL || strstr(t, "'d 1'") != NULL,
	    "... and says how to open one");
	free(t);

	/* The detail: fix lines whole, even where wider than the width. */
	f = &r.fs.v[0];
	in.width = 40;
	d = wg_detail(&in, 1);
	ok(d != NULL && strncmp(d, "1. ERROR", 8) == 0, "d 1: the first finding's detail");
	ok(d != NULL && strstr(d, "\nEvidence\n") != NULL && strstr(d, "\nFix\n") != NULL,
	    "... with its evidence and its fix");
	whole = f->fix.n > 0;
	for (size_t i = 0; i < f->fix.n; i++) {
		char *want = xasprintf("  %s", f->fix.v[i]);

		if (strlen(f->fix.v[i]) > longest)
			longest = strlen(f->fix.v[i]);
		whole = whole && d != NULL && has_whole_line(d, want);
		free(want);
	}
	ok(whole && longest > 40, "... each of its %zu fix lines whole on its own line, "
	    "the longest (%zu) wider than the 40 columns", f->fix.n, longest);
	ok(d != NULL && strstr(d, "CUDA 11.2") != NULL, "... the fix names CUDA 11.2");
	free(d);
	ok(wg_detail(&in, r.fs.n + 1) == NULL, "no detail past the last finding");
	in.width = 72;

	/* The Fix page: every error's and warning's fix lines, whole. */
	t = page(WG_FIX, &in);
	whole = true;
	for (size_t i = 0; i < r.fs.n; i++) {
		if (r.fs.v[i].severity == SEV_INFO)
			continue;
		for (size_t j = 0; j < r.fs.v[i].fix.n; j++) {
			char *want = xasprintf("    %s", r.fs.v[i].fix.v[j]);

			nfix++;
			whole = whole && has_whole_line(t, want);
			free(want);
		}
	}
	ok(nfix > 0 && whole, "Fix shows the %zu fix lines whole", nfix);
	ok(strstr(t, "Type w to write") != NULL, "... and offers the script");
	free(t);

	/* The script's states, on Fix and Done. */
	st.script_error = "cudawiz: 'env' is not available on Windows yet";
	t = page(WG_FIX, &in);
	ok(strstr(t, "The script was not written: cudawiz: 'env' is not") != NULL,
	    "env refused: Fix says the script was not written, and why");
	free(t);
	t = page(WG_DONE, &in);
	ok(strstr(t, "Nothing was written.") != NULL && strstr(t, "page 9 (Fix)") != NULL &&
	    has_whole_line(t, "    cudawiz.exe doctor"),
	    "... Done: nothing written, the Fix page's lines and doctor to run next");
	free(t);
	st.script_error = NULL;
	st.script = "cudawiz-env.ps1";
	st.script_shell = "powershell";
	t = page(WG_DONE, &in);
	ok(strstr(t, "Written: cudawiz-env.ps1") != NULL &&
	    has_whole_line(t, "    . '.\\cudawiz-env.ps1'"),
	    "written for PowerShell: Done names it and how to dot-source it");
	free(t);
	st.script = "C:\\Users\\ana\\env.cmd";
	st.script_shell = "cmd";
	t = page(WG_FIX, &in);
	ok(has_whole_line(t, "    call \"C:\\Users\\ana\\env.cmd\"") &&
	    strstr(t, "Type w") == NULL, "written for cmd.exe: call it; w is not offered again");
	free(t);
	st.script = NULL;

	/* The live checks: their findings numbered after the others. */
	{
		struct findings vf = { 0 };
		struct finding *g = finding_add(&vf, FINDING_SONAME_NOT_FOUND, "%s",
		    "from the live checks");
		size_t nv = r.fs.n + 1;
		char num[16];

		finding_subject(g, "%s", "cudnn64_8.dll");
		t = page(WG_VERIFY, &in);
		ok(strstr(t, "Run them now?") != NULL, "Live verification offers the checks");
		free(t);
		t = wg_prompt(WG_VERIFY, &in);
		d = xasprintf("y run the checks  d 1-%zu detail\nEnter/n next  p back  "
		    "1-10 page  r rescan  q quit  ? help: ", r.fs.n);
		is_str(t, d, "... its prompt: y and d N on a line, then the replies of every page");
		free(d);
		free(t);
		t = wg_prompt(WG_GPUS, &in);
		is_str(t, "Enter/n next  p back  1-10 page  r rescan  q quit  ? help: ",
		    "a page with no replies of its own: those of every page");
		free(t);
		st.verified = true;
		st.verify_runs = "  runtime  C:\\x\\cudart64_12.dll\n      works\n";
		st.verify_findings = &vf;
		t = page(WG_VERIFY, &in);
		snprintf(num, sizeof num, "\n  %zu. ", nv);
		ok(strstr(t, "      works\n") != NULL && strstr(t, num) != NULL &&
		    strstr(t, "cudnn64_8.dll") != NULL,
		    "... after them: the runs, and their finding numbered %zu", nv);
		free(t);
		is_int(wg_finding_count(&in), nv, "... counted with the others");
		d = wg_detail(&in, nv);
		ok(d != NULL && strstr(d, "from the live checks") != NULL, "... d %zu opens it", nv);
		free(d);
		findings_free(&vf);
		st = (struct wg_state){ 0 };
	}
	winfx_run_free(&r);
}

static void
test_healthy(void)
{
	struct sysroot *sr = winfx_phase("healthy");
	struct wg_state st = { 0 };
	struct wg_in in;
	struct winfx_run r;
	char *t, *l;

	winfx_machine_healthy();
	winfx_run(&r, sr, winfx_healthy_env, "560.94", mx);
	sysroot_free(sr);
	in = (struct wg_in){ &r.wf, &r.fs, &st, 80 };
	t = page(WG_SUMMARY, &in);
	l = line_of(t, 0);
	ok(l != NULL && strncmp(l, "no problem found: 0 errors, 0 warnings", 38) == 0,
	    "a healthy machine: the Summary says no problem found: %s", l);
	free(l);
	ok(strstr(t, "'d 1'") == NULL, "... and sends nobody to a finding");
	free(t);
	t = page(WG_TOOLKITS, &in);
	ok(strstr(t, "\n  11.2     " WINFX_WTK "v11.2  (CUDA_PATH)  cudart64_110.dll\n") != NULL,
	    "Toolkits: CUDA 11.2 where CUDA_PATH names it, with its runtime");
	free(t);
	t = page(WG_PYTHON, &in);
	ok(strstr(t, "\n      tensorflow 2.10.1\n") != NULL &&
	    strstr(t, "cudart64_110.dll       " WINFX_WTK "v11.2\\bin\\cudart64_110.dll") != NULL,
	    "Python: TensorFlow 2.10.1 and where its cudart64_110.dll loads from");
	free(t);
	t = page(WG_FIX, &in);
	ok(strstr(t, "Nothing to fix") != NULL, "Fix: nothing to fix");
	free(t);
	winfx_run_free(&r);
}

/* The pages, their order and titles: the Linux wizard's. */
static void
test_pages(void)
{
	bool same = wiz_page_count() == WG_PAGE_COUNT;
	char *h;

	for (size_t i = 0; same && i < WG_PAGE_COUNT; i++)
		same = strcmp(wg_page_title((enum wg_page)i), wiz_page(i)->title) == 0;
	ok(same, "the %d pages are the Linux wizard's, in its order, with its titles",
	    WG_PAGE_COUNT);
	h = wg_heading(WG_TOOLKITS);
	is_str(h, "[3/10] Toolkits and cuDNN", "a page's heading: its number of ten and title");
	free(h);
}

static void
test_replies(void)
{
	size_t arg = 99;

	is_int(wg_parse("", WG_GPUS, 3, &arg), WG_CMD_NEXT, "Enter: next");
	is_int(wg_parse(" N ", WG_GPUS, 3, &arg), WG_CMD_NEXT, "n (any case, spaces round it): next");
	is_int(wg_parse("n", WG_VERIFY, 3, &arg), WG_CMD_NEXT, "n on Live verification: next, no checks");
	is_int(wg_parse("p", WG_GPUS, 3, &arg), WG_CMD_BACK, "p: back");
	ok(wg_parse("10", WG_GPUS, 3, &arg) == WG_CMD_JUMP && arg == 9, "10: page 10 (index 9)");
	ok(wg_parse("3", WG_DIAGNOSIS, 3, &arg) == WG_CMD_JUMP && arg == 2,
	    "3 on Diagnosis: still a page (a finding is d N)");
	is_int(wg_parse("11", WG_GPUS, 3, &arg), WG_CMD_UNKNOWN, "11: no such page");
	is_int(wg_parse("0", WG_GPUS, 3, &arg), WG_CMD_UNKNOWN, "0: no such page");
	ok(wg_parse("d 2", WG_DIAGNOSIS, 3, &arg) == WG_CMD_DETAIL && arg == 2, "d 2: finding 2");
	ok(wg_parse("d3", WG_SUMMARY, 3, &arg) == WG_CMD_DETAIL && arg == 3, "d3: finding 3");
	is_int(wg_parse("d 4", WG_DIAGNOSIS, 3, &arg), WG_CMD_UNKNOWN, "d 4 of 3: unknown");
	is_int(wg_parse("d", WG_DIAGNOSIS, 3, &arg), WG_CMD_UNKNOWN, "d alone: unknown");
	is_int(wg_parse("y", WG_VERIFY, 3, &arg), WG_CMD_VERIFY, "y on Live verification: run");
	is_int(wg_parse("y", WG_FIX, 3, &arg), WG_CMD_UNKNOWN, "y elsewhere: unknown");
	is_int(wg_parse("w", WG_FIX, 3, &arg), WG_CMD_WRITE, "w on Fix: write");
	is_int(wg_parse("w", WG_DONE, 3, &arg), WG_CMD_UNKNOWN, "w elsewhere: unknown");
	is_int(wg_parse("r", WG_DONE, 3, &arg), WG_CMD_RESCAN, "r: rescan");
	is_int(wg_parse("q\r", WG_DONE, 3, &arg), WG_CMD_QUIT, "q (CRLF): quit");
	is_int(wg_parse("?", WG_DONE, 3, &arg), WG_CMD_HELP, "?: help");
	is_int(wg_parse("frobnicate", WG_DONE, 3, &arg), WG_CMD_UNKNOWN, "garbage: unknown");
	is_int(wg_parse("99999999999999999999999", WG_DONE, 3, &arg), WG_CMD_UNKNOWN,
	    "a huge number: unknown, no overflow");
}

/* Four characters of two columns each: 8 columns. */
#define CJK4	"\xe6\x89\xbe\xe4\xb8\x8d\xe5\x88\xb0\xe5\xba\x93"

static void
test_wrap(void)
{
	static const struct {
		int		 first, rest;
		const char	*text, *want, *what;
	} cases[] = {
		{ 2, 4, "one two three four five six seven",
		    "  one two three four\n    five six seven\n",
		    "wrapped at spaces, the first line indented 2, the rest 4" },
		{ 0, 0, "a C:\\Program_Files\\NVIDIA_GPU_Computing_Toolkit b",
		    "a\nC:\\Program_Files\\NVIDIA_GPU_Computing_Toolkit\nb\n",
		    "a word wider than the line stays whole on its own" },
		{ 0, 0, CJK4 " " CJK4 " x", CJK4 " " CJK4 " x\n",
		    "CJK counted by columns: 8 + 1 + 8 + 1 + 1 fit 20" },
		{ 0, 0, CJK4 " " CJK4 " xyz", CJK4 " " CJK4 "\nxyz\n",
		    "... and 21 columns do not" },
	};
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		wg_wrap(&sb, 20, cases[i].first, cases[i].rest, cases[i].text);
		is_str(strbuf_str(&sb), cases[i].want, "%s", cases[i].what);
		strbuf_free(&sb);
	}
}

int
main(void)
{
	winfx_begin("test_winguide");
	mx = matrix_embedded();
	test_pages();
	test_replies();
	test_wrap();
	test_cudart110();
	test_healthy();
	matrix_free(mx);
	winfx_end();
	return done_testing();
}
