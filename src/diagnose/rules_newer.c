/* NEWER_THAN_MATRIX: a toolkit or cuDNN released after the compatibility
 * data was written. Every rule that looks a version up in the matrix stays
 * silent on a version it does not know, so without this note a new
 * release would look checked when nothing was checked (issue 19.9). */
#include "config.h"

#include <string.h>

#include "diagnose/diagnose.h"
#include "diagnose/subject.h"
#include "diagnose/rules_python_int.h"
#include "i18n.h"
#include "util/strv.h"
#include "util/version.h"

/* version is above newest and not one of its releases ("9.17.0" holds
 * "9.17.0.x"). */
static bool
above(const char *version, const char *newest)
{
	size_t n = strlen(newest);

	if (strncmp(version, newest, n) == 0 &&
	    (version[n] == '\0' || version[n] == '.'))
		return false;
	return version_cmp_str(version, newest) > 0;
}

void
rules_newer(const struct diagnose_input *in, struct findings *out)
{
	const struct facts *facts = in->facts;
	const struct matrix_cuda_release *cr = matrix_newest_cuda(in->matrix);
	enum matrix_status st;
	const char *dnn = matrix_newest_cudnn(in->matrix, &st);
	char top[MATRIX_VERSION_MAX], mm[MATRIX_VERSION_MAX];
	struct strv what = STRV_INIT;
	/* The first thing newer than the data: the subject. */
	const struct toolkit_fact *tk0 = NULL;
	const char *dnn0 = NULL, *dnn0_dir = NULL;
	struct finding *f;

	/* A toolkit's release is its major.minor: "13.0.96" (its cudart)
	 * is release 13.0, which a matrix knowing 13.0.2 knows. */
	for (size_t i = 0; cr != NULL && pr_major_minor(cr->version, top, sizeof top) &&
	    i < facts->toolkits.n; i++) {
		const struct toolkit_fact *t = &facts->toolkits.v[i];

		if (fact_known(&t->version) &&
		    pr_major_minor(t->version.value, mm, sizeof mm) &&
		    version_cmp_str(mm, top) > 0) {
			if (tk0 == NULL)
				tk0 = t;
			strv_pushf(&what, _("CUDA %s at %s: the newest CUDA the "
			    "data knows is %s"), t->version.value, t->root,
			    cr->version);
		}
	}
	for (size_t i = 0; dnn != NULL && i < facts->cudnn.n; i++) {
		const struct cudnn_fact *c = &facts->cudnn.v[i];
		const char *v = fact_known(&c->version) ? c->version.value :
		    fact_known(&c->lib_version) ? c->lib_version.value : NULL;

		if (v != NULL && above(v, dnn)) {
			if (dnn0 == NULL) {
				dnn0 = v;
				dnn0_dir = c->lib_dir;
			}
			strv_pushf(&what, _("cuDNN %s in %s: the newest cuDNN the "
			    "data knows is %s"), v, c->lib_dir, dnn);
		}
	}
	if (what.n == 0)
		return;
	f = finding_add(out, FINDING_NEWER_THAN_MATRIX,
	    _("Some of what is installed is newer than the compatibility data "
	    "(dated %s), so the checks that need its rows (the driver it "
	    "needs, the GPUs it builds for, the frameworks it suits) were not "
	    "made for it. Nothing is known to be wrong."),
	    matrix_date(in->matrix));
	if (tk0 != NULL)
		subj_toolkit(f, tk0);
	else if (dnn0 != NULL)
		/* TRANSLATORS: a finding's subject: "cuDNN 9.19.0 in
		 * /usr/lib/x86_64-linux-gnu". */
		finding_subject(f, _("cuDNN %s in %s"), dnn0,
		    dnn0_dir != NULL ? dnn0_dir : "?");
	for (size_t i = 0; i < what.n; i++)
		strv_push(&f->evidence, what.v[i]);
	strv_free(&what);
	strv_push(&f->fix, "cudawiz matrix update");
}
