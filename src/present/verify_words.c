/* The words of a run's name and end; see verify_words.h. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "i18n.h"
#include "present/verify_words.h"
#include "util/xalloc.h"

/* cuDNN's version integer: 91900 is 9.19.0 (cuDNN 9 on), 8907 is 8.9.7. */
static void
cudnn_version(double v, char *buf, size_t n)
{
	int i = (int)v;

	if (i >= 90000)
		snprintf(buf, n, "%d.%d.%d", i / 10000, i % 10000 / 100, i % 100);
	else
		snprintf(buf, n, "%d.%d.%d", i / 1000, i % 1000 / 100, i % 100);
}

char *
verify_run_title(const struct verify_run *r)
{
	const struct verify_record *rec;
	double v, cv;
	char buf[32];

	switch (r->kind) {
	case VERIFY_DRIVER:
		rec = verify_find(r, "driver_version", -1);
		if (rec != NULL && verify_num(rec, "version", &v) && v > 0)
			return xasprintf(_("driver (CUDA %d.%d)"), (int)v / 1000,
			    (int)v % 1000 / 10);
		return xstrdup(_("driver"));
	case VERIFY_RUNTIME:
		rec = verify_find(r, "runtime_version", -1);
		if (rec != NULL && verify_num(rec, "version", &v) && v > 0)
			return xasprintf(_("runtime %d.%d"), (int)v / 1000,
			    (int)v % 1000 / 10);
		return xstrdup(_("runtime"));
	case VERIFY_CUDNN:
		rec = verify_find(r, "cudnn_version", -1);
		if (rec != NULL && verify_num(rec, "version", &v)) {
			cudnn_version(v, buf, sizeof buf);
			if (verify_num(rec, "cudart_version", &cv) && cv > 0)
				return xasprintf(_("cuDNN %s (CUDA %d.%d)"), buf,
				    (int)cv / 1000, (int)cv % 1000 / 10);
			return xasprintf(_("cuDNN %s"), buf);
		}
		return xstrdup(_("cuDNN"));
	}
	return xstrdup("?");
}

char *
verify_run_outcome(const struct verify_run *r, const char *on,
    const char *off, enum vrun_mark *mark)
{
	const char *step = r->last_step != NULL ? r->last_step : _("start-up");
	const char *sig = verify_signal_name(r->signal);
	enum vrun_mark dummy;

	if (mark == NULL)
		mark = &dummy;
	*mark = VRUN_FAILED;
	switch (r->outcome) {
	case VERIFY_SIGNALLED:
		return xasprintf(_("%sCRASHED%s (%s in %s)"), on, off,
		    sig != NULL ? sig : "?", step);
	case VERIFY_EXITED:
		return xasprintf(_("%sEXITED%s (status %d in %s)"), on, off,
		    r->exit_status, step);
	case VERIFY_TIMED_OUT:
		return xasprintf(_("%sHUNG%s (in %s)"), on, off, step);
	case VERIFY_NOT_STARTED:
		*mark = VRUN_WARNING;
		return xasprintf(_("not checked: %s"), r->start_error != NULL ?
		    r->start_error : "?");
	case VERIFY_DONE:
	case VERIFY_GARBLED:
		break;
	}
	for (size_t i = 0; i < r->records.n; i++) {
		const struct verify_record *rec = &r->records.v[i];
		const char *err;

		if (rec->ok != 0)
			continue;
		if (strcmp(rec->check, "load") == 0) {
			err = verify_str(rec, "error");
			return xasprintf(_("%snot loaded%s: %s"), on, off,
			    err != NULL ? err : "?");
		}
		if (rec->has_code && rec->name != NULL)
			return xasprintf("%s%s%s (%lld)", on, rec->name, off, rec->code);
		if (rec->has_code)
			return xasprintf(_("%s%s failed%s (%lld)"), on, rec->check,
			    off, rec->code);
		return xasprintf(_("%s%s failed%s"), on, rec->check, off);
	}
	/* Every check passed, but lines that were not records came too. */
	*mark = r->outcome == VERIFY_GARBLED ? VRUN_WARNING : VRUN_PASSED;
	return xstrdup(_("works"));
}
