/* The wizard's answer, from findings made by hand: the Summary lists
 * the findings by subject and Enter opens the chosen one; Diagnosis
 * rows read differently for two findings of one code; the detail's fix
 * lines are never wrapped, f and c ask for the Fix page and the copy;
 * install lines of several findings for one environment join into one
 * command, and only those. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/tap.h"
#include "util/xalloc.h"
#include "wizard/installs.h"
#include "wizard/keys.h"
#include "wizard/page.h"

static struct finding *
add(struct findings *fs, enum finding_code code, const char *subject)
{
	struct finding *f = finding_add(fs, code, "detail of %s",
	    finding_code_name(code));

	if (subject != NULL)
		finding_subject(f, "%s", subject);
	return f;
}

/* A context of rows x cols for the report r. */
static struct wpage_ctx
ctx(struct wiz_report *r, struct page_state *st, struct wnav *nav, int rows,
    int cols)
{
	struct wpage_ctx c = { 0 };

	*nav = (struct wnav){ .page = -1, .finding = -1, .fix = -1 };
	c.r = r;
	c.g = wglyphs_get(true);
	c.st = st;
	c.nav = nav;
	c.body = (struct wrect){ 2, 2, rows, cols };
	c.busy_s = -1;
	return c;
}

/* The line of d that starts with prefix (after its indent), or NULL. */
static const struct wline *
line_with(const struct wdoc *d, const char *prefix)
{
	for (size_t i = 0; i < d->n; i++)
		if (strncmp(d->v[i].text, prefix, strlen(prefix)) == 0)
			return &d->v[i];
	return NULL;
}

static void
test_install_target(void)
{
	char *k;

	k = winstall_target("/e/bin/python3.11 -m pip install 'a>=1'");
	is_str(k, "/e/bin/python3.11 -m pip", "a Python's pip: the program");
	free(k);
	k = winstall_target("'/my env/bin/python' -m pip install b");
	is_str(k, "'/my env/bin/python' -m pip", "a quoted path stays as written");
	free(k);
	k = winstall_target("sudo apt-get install --reinstall nvidia-dkms");
	is_str(k, "sudo apt-get", "apt under sudo");
	free(k);
	k = winstall_target("conda install -p /c/envs/x -c nvidia cudnn=8");
	is_str(k, "conda -p /c/envs/x", "conda: the prefix is the environment");
	free(k);
	ok(winstall_target("# install the wheel:") == NULL, "a comment is none");
	ok(winstall_target("pip install a && pip install b") == NULL,
	    "two commands are none");
	ok(winstall_target("echo pip install a") == NULL, "another program is none");
	ok(winstall_target("export LD_LIBRARY_PATH=/x") == NULL, "an export is none");
	ok(winstall_target("pip uninstall a") == NULL, "uninstall is none");
}

static void
test_install_combined(void)
{
	struct findings fs = { 0 };
	struct finding *a, *b, *c, *d;
	char *all;

	a = add(&fs, FINDING_SONAME_NOT_FOUND, NULL);
	strv_push(&a->fix, "# install the wheel:");
	strv_push(&a->fix, "/e/bin/python -m pip install 'x-cu12>=12.1,<13'");
	strv_push(&a->fix, "# or the other one:");
	strv_push(&a->fix, "/e/bin/python -m pip install y");
	b = add(&fs, FINDING_SONAME_NOT_FOUND, NULL);
	strv_push(&b->fix, "/e/bin/python -m pip install --index-url https://i z");
	c = add(&fs, FINDING_SONAME_NOT_FOUND, NULL);
	strv_push(&c->fix, "/f/bin/python -m pip install w");
	d = add(&fs, FINDING_SONAME_NOT_FOUND, NULL);
	strv_push(&d->fix, "/e/bin/python -m pip install 'x-cu12>=12.1,<13'");

	all = winstall_combined(&fs, "/e/bin/python -m pip");
	is_str(all, "/e/bin/python -m pip install 'x-cu12>=12.1,<13' && "
	    "/e/bin/python -m pip install --index-url https://i z",
	    "each finding's first line for the environment, whole, once");
	free(all);
	ok(winstall_combined(&fs, "/f/bin/python -m pip") == NULL,
	    "no other finding installs there: no combined command");
	findings_free(&fs);
}

static void
report(struct wiz_report *r)
{
	memset(r, 0, sizeof *r);
	r->root = xstrdup("/fixture");
	r->matrix_source = xstrdup("file");
	r->matrix_date = xstrdup("2026-01-01");
	add(&r->findings, FINDING_SONAME_NOT_FOUND,
	    "cupy-cuda110 in /home/u/nlp needs libcudart.so.11.0");
	add(&r->findings, FINDING_SONAME_NOT_FOUND,
	    "torch 2.3.1 in /home/u/train needs libcublas.so.12");
	strv_push(&r->findings.v[1].fix, "# install the wheel:");
	strv_push(&r->findings.v[1].fix, "/home/u/train/bin/python -m pip install "
	    "'nvidia-cublas-cu12>=12.1,<13' --no-cache-dir --verbose");
	add(&r->findings, FINDING_NO_VISIBLE_DEVICES, NULL);
	findings_sort(&r->findings);
}

/* The index of the finding whose subject starts with prefix (NULL: the
 * one without a subject). */
static int
index_of(const struct wiz_report *r, const char *prefix)
{
	for (size_t i = 0; i < r->findings.n; i++) {
		const char *s = r->findings.v[i].subject;

		if (prefix == NULL ? s == NULL : s != NULL &&
		    strncmp(s, prefix, strlen(prefix)) == 0)
			return (int)i;
	}
	return -1;
}

static void
report_free(struct wiz_report *r)
{
	findings_free(&r->findings);
	free(r->root);
	free(r->matrix_source);
	free(r->matrix_date);
}

/* The report above on a page of 20 x 76, and the document a page
 * builds from it. */
struct fx {
	struct wiz_report	r;
	struct page_state	st;
	struct wnav		nav;
	struct wpage_ctx	c;
	struct wdoc		d;
};

static void
fx_open(struct fx *x)
{
	report(&x->r);
	x->st = (struct page_state){ 0 };
	x->c = ctx(&x->r, &x->st, &x->nav, 20, 76);
	wdoc_init(&x->d, 76);
}

/* p's document now, in x->d. */
static void
fx_build(struct fx *x, const struct wpage *p)
{
	wdoc_free(&x->d);
	wdoc_init(&x->d, x->c.body.cols);
	p->build(&x->c, &x->d);
}

static void
fx_close(struct fx *x)
{
	wdoc_free(&x->d);
	report_free(&x->r);
}

static void
test_diagnosis_rows(void)
{
	struct fx x;
	const struct wline *l;

	fx_open(&x);
	fx_build(&x, &page_diagnosis);
	l = line_with(&x.d, "✗ cupy-cuda110 in /home/u/nlp needs libcudart.so.11.0");
	ok(l != NULL && l->item >= 0, "a row says what its finding is about");
	l = line_with(&x.d, "✗ torch 2.3.1 in /home/u/train needs libcublas.so.12");
	ok(l != NULL && l->item >= 0, "and the other row of that code differs");
	ok(line_with(&x.d, "ERROR  SONAME_NOT_FOUND: A needed library") != NULL,
	    "the code and the title under it");
	ok(line_with(&x.d, "✗ CUDA_VISIBLE_DEVICES hides GPUs") != NULL,
	    "no subject: the title");
	ok(line_with(&x.d, "3 errors, 0 warnings, 0 notes") != NULL, "the counts");

	x.c.compact = true;
	x.c.body.cols = 40;
	fx_build(&x, &page_diagnosis);
	ok(line_with(&x.d, "✗ cupy-cuda110 in /home/u/nlp needs lib…") != NULL &&
	    line_with(&x.d, "ERROR  SONAME_NOT_FOUND") == NULL,
	    "compact: one line, cut with …");

	x.c.compact = false;
	x.c.wide = true;
	x.c.body.cols = 180;
	fx_build(&x, &page_diagnosis);
	l = line_with(&x.d, "✗ cupy-cuda110");
	ok(l != NULL && strlen(l->text) > 20 && strcmp(l->text + strlen(l->text) -
	    16, "SONAME_NOT_FOUND") == 0 && wtext_width(l->text) == 81,
	    "wide: one line, the code at the right of the list (45 %%)");
	fx_close(&x);
}

static void
test_detail_keys(void)
{
	struct fx x;
	const struct wline *l;
	int torch;

	fx_open(&x);
	torch = index_of(&x.r, "torch");
	x.st.sel = torch;
	is_int(page_diagnosis.key(&x.c, WK_ENTER), WPK_DONE, "Enter opens");
	ok(x.st.detail, "the detail is open");
	fx_build(&x, &page_diagnosis);
	ok(line_with(&x.d, "✗ torch 2.3.1 in /home/u/train needs libcublas.so.12")
	    == &x.d.v[0], "the detail's heading is the subject");
	l = line_with(&x.d, "/home/u/train/bin/python -m pip install");
	ok(l != NULL && l->nowrap && wtext_width(l->text) > 76,
	    "a fix line wider than the view is one unwrapped line");
	l = line_with(&x.d, "# install the wheel:");
	ok(l != NULL && l->nowrap, "comments keep their #");
	is_int(page_diagnosis.key(&x.c, WK_RIGHT), WPK_DONE, "Right scrolls it");
	ok(x.st.hscroll > 0, "sideways");
	is_int(page_diagnosis.key(&x.c, WK_LEFT), WPK_DONE, "Left scrolls back");
	is_int(x.st.hscroll, 0, "to its start");
	ok(x.st.detail, "and stays in the detail");
	is_int(page_diagnosis.key(&x.c, 'c'), WPK_DONE, "c copies");
	is_str(x.nav.copy, "# install the wheel:\n/home/u/train/bin/python -m pip "
	    "install 'nvidia-cublas-cu12>=12.1,<13' --no-cache-dir --verbose",
	    "the fix lines, one a line");
	free(x.nav.copy);
	x.nav.copy = NULL;
	is_int(page_diagnosis.key(&x.c, 'f'), WPK_DONE, "f fixes");
	is_int(x.nav.fix, torch, "the Fix page for this finding");
	is_str(page_diagnosis.hint_now(&x.c), "Esc: back  f: fix this  c: copy fix  "
	    "Left/Right: scroll", "the footer has the keys that apply");
	is_int(page_diagnosis.key(&x.c, WK_ESC), WPK_DONE, "Esc closes");
	ok(!x.st.detail, "back to the list");
	is_int(page_diagnosis.key(&x.c, WK_ESC), WPK_IGNORED,
	    "Esc on the list is the wizard's (back)");
	x.st.sel = index_of(&x.r, NULL);
	(void)page_diagnosis.key(&x.c, WK_ENTER);
	is_int(page_diagnosis.key(&x.c, 'c'), WPK_DONE, "c with no fix lines");
	ok(x.nav.copy == NULL && x.nav.flash != NULL,
	    "says there is nothing to copy");
	free(x.nav.flash);
	fx_close(&x);
}

static void
test_summary(void)
{
	struct fx x;
	const struct wline *l;

	fx_open(&x);
	fx_build(&x, &page_welcome);
	ok(line_with(&x.d, "✗ CUDA will not work as it is set up now: 3 errors")
	    == &x.d.v[0], "the verdict first, with the counts");
	l = line_with(&x.d, "✗ cupy-cuda110 in /home/u/nlp needs libcudart.so.11.0");
	ok(l != NULL && l->item == index_of(&x.r, "cupy"),
	    "a finding by its subject");
	ok(line_with(&x.d, "and ") == NULL, "all three fit: no \"and N more\"");
	ok(line_with(&x.d, "Enter: see why and fix it") != NULL, "the next action");
	ok(line_with(&x.d, "1 Summary") != NULL, "the pages as a numbered menu");
	is_int(page_welcome.key(&x.c, WK_DOWN), WPK_DONE, "Down chooses");
	is_int(page_welcome.key(&x.c, WK_ENTER), WPK_DONE, "Enter opens");
	is_int(x.nav.finding, 1, "the chosen finding");
	x.nav.finding = -1;
	is_int(page_welcome.click(&x.c, 3, 2, 3, 0), WPK_DONE, "a click on a row");
	is_int(x.nav.finding, 2, "opens that finding");

	/* Too short for all: the top ones and how many more. */
	x.c.body.rows = 12;
	fx_build(&x, &page_welcome);
	l = line_with(&x.d, "and ");
	ok(l != NULL && strstr(l->text, "(Diagnosis, 8)") != NULL,
	    "cut: \"and N more (Diagnosis, 8)\"");
	fx_close(&x);

	/* Nothing found: Enter goes on to the facts. */
	fx_open(&x);
	findings_free(&x.r.findings);
	fx_build(&x, &page_welcome);
	ok(line_with(&x.d, "✓ no problem found") != NULL &&
	    line_with(&x.d, "Enter: see what was found") != NULL,
	    "healthy: the verdict and what Enter does");
	is_int(page_welcome.key(&x.c, WK_ENTER), WPK_DONE, "Enter");
	is_int(x.nav.page, 1, "goes on to the first page of facts");
	fx_close(&x);
}

static void
test_findings_of(void)
{
	static const enum finding_code codes[] = { FINDING_NO_VISIBLE_DEVICES };
	struct fx x;
	const struct wline *l;

	fx_open(&x);
	wdoc_findings_of(&x.d, &x.c, codes, 1);
	l = line_with(&x.d, "✗ CUDA_VISIBLE_DEVICES hides GPUs (NO_VISIBLE_DEVICES)");
	ok(l != NULL && l->item == index_of(&x.r, NULL),
	    "a fact page's finding opens by its item");
	is_int(x.d.item, -1, "later lines belong to no finding");
	fx_close(&x);
}

int
main(void)
{
	test_install_target();
	test_install_combined();
	test_diagnosis_rows();
	test_detail_keys();
	test_summary();
	test_findings_of();
	return done_testing();
}
