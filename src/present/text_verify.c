/* The "Live verification" section of the text report: one line per
 * library checked with what it proved ("works", or the first thing that
 * failed, in the library's own words), and under the driver one line per
 * device with what its kernels measured. The JSON report has every
 * record. */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "present/style.h"
#include "present/text.h"
#include "present/textline.h"
#include "present/verify_words.h"

#define GIB	(1024.0 * 1024.0 * 1024.0)

static void
title_piece(struct tline *l, const struct verify_run *r)
{
	char *t = verify_run_title(r);

	pl_piece(l, t);
	free(t);
}

static void
status_piece(struct tline *l, const struct verify_run *r, bool color)
{
	char *t = verify_run_outcome(r, style_sev_on(SEV_ERROR, color),
	    style_off(color), NULL);

	pl_piece(l, t);
	free(t);
}

static void
where_piece(struct tline *l, const struct verify_run *r)
{
	pl_piece(l, r->lib);
	if (r->owner_name != NULL && strcmp(r->where, "conda") == 0)
		pl_piecef(l, _("(conda env %s)"), r->owner_name);
	else if (r->owner_name != NULL)
		pl_piecef(l, _("(%s in env %s)"), r->where, r->owner_name);
	else if (r->kind == VERIFY_RUNTIME && strcmp(r->where, "toolkit") == 0 &&
	    r->owner != NULL)
		pl_piecef(l, _("(toolkit %s)"), r->owner);
	else if (strcmp(r->where, "wheel") == 0)
		pl_piece(l, _("(pip wheel)"));
}

static void
device_lines(FILE *fp, const struct verify_run *r, int dev)
{
	const struct verify_record *d = verify_find(r, "device", dev);
	const struct verify_record *m = verify_find(r, "memory", dev);
	const struct verify_record *rec;
	const char *name = d != NULL ? verify_str(d, "name") : NULL;
	const char *cc = d != NULL ? verify_str(d, "cc") : NULL;
	double v, w, free_b, total;
	struct tline l;

	pl_start(&l, fp, 6, 8);
	pl_piecef(&l, _("device %d"), dev);
	if (name != NULL)
		pl_piece(&l, name);
	if (cc != NULL)
		pl_piecef(&l, _("cc %s"), cc);
	if (d != NULL && verify_num(d, "sm_count", &v))
		pl_piecef(&l, _("%.0f SMs"), v);
	if (m != NULL && verify_num(m, "free", &free_b) && verify_num(m, "total", &total))
		pl_piecef(&l, _("%.1f of %.1f GiB free"), free_b / GIB, total / GIB);
	pl_end(&l);

	if (verify_find(r, "ptx_jit", dev) == NULL && verify_find(r, "saxpy", dev) == NULL)
		return;
	pl_start(&l, fp, 8, 10);
	if ((rec = verify_find(r, "ptx_jit", dev)) != NULL && rec->ok == 1)
		pl_piecef(&l, _("PTX JIT ok (%s)"), verify_str(rec, "variant") != NULL ?
		    verify_str(rec, "variant") : "?");
	if ((rec = verify_find(r, "saxpy", dev)) != NULL)
		pl_piece(&l, rec->ok == 1 ? _("saxpy ok") : _("saxpy WRONG"));
	if ((rec = verify_find(r, "copy_bandwidth", dev)) != NULL && rec->ok == 1 &&
	    verify_num(rec, "kernel_gbps", &v) && verify_num(rec, "memcpy_gbps", &w))
		pl_piecef(&l, _("copy %.0f GB/s (%.0f%% of cuMemcpyDtoD's %.0f)"),
		    v, w > 0 ? 100 * v / w : 0, w);
	if ((rec = verify_find(r, "fma", dev)) != NULL && rec->ok == 1 &&
	    verify_num(rec, "gflops", &v))
		pl_piecef(&l, _("FP32 FMA %.0f GFLOP/s"), v);
	if ((rec = verify_find(r, "pinned", dev)) != NULL && rec->ok == 1 &&
	    verify_num(rec, "h2d_gbps", &v) && verify_num(rec, "d2h_gbps", &w))
		pl_piecef(&l, _("pinned H2D %.1f, D2H %.1f GB/s"), v, w);
	if ((rec = verify_find(r, "ptx_jit", dev)) != NULL && rec->ok == 0)
		pl_piece(&l, _("PTX JIT FAILED"));
	pl_end(&l);
}

/* A library found but left unloaded (docs/VERIFY.md, "What is
 * loaded"): the static checks of the other sections still cover it. */
static void
not_loaded_line(FILE *fp, const struct verify_run *r)
{
	struct tline l;

	pl_start(&l, fp, 2, 6);
	title_piece(&l, r);	/* no records: the kind's bare word */
	where_piece(&l, r);
	pl_piecef(&l, _("not loaded: %s"), r->not_loaded_why != NULL ?
	    r->not_loaded_why : "?");
	pl_end(&l);
}

bool
text_verify_head(FILE *fp, enum verify_state state, const char *why,
    bool color)
{
	fprintf(fp, "%s%s%s\n", style_bold(color), _("Live verification"),
	    style_off(color));
	if (state == VERIFY_STATE_RAN)
		return true;
	fprintf(fp, "  %s: %s\n", state == VERIFY_STATE_SKIPPED ?
	    _("skipped") : _("not run"), why != NULL ? why : "?");
	return false;
}

void
text_print_verify(FILE *fp, const struct facts *facts, bool color)
{
	const struct verify_facts *vf = &facts->verify;

	fputc('\n', fp);
	if (!text_verify_head(fp, vf->state, vf->why, color))
		return;
	if (vf->runs.n == 0 && vf->not_loaded.n == 0)
		fprintf(fp, "  %s\n", _("nothing to check"));
	for (size_t i = 0; i < vf->runs.n; i++) {
		const struct verify_run *r = &vf->runs.v[i];
		struct tline l;

		pl_start(&l, fp, 2, 6);
		title_piece(&l, r);
		where_piece(&l, r);
		status_piece(&l, r, color);
		pl_end(&l);
		for (size_t k = 0; k < r->records.n; k++)
			if (strcmp(r->records.v[k].check, "device") == 0)
				device_lines(fp, r, r->records.v[k].device);
	}
	for (size_t i = 0; i < vf->not_loaded.n; i++)
		not_loaded_line(fp, &vf->not_loaded.v[i]);
	fprintf(fp, _("  %zu check(s) in %.2f s\n"), vf->runs.n, vf->ms / 1000.0);
}
