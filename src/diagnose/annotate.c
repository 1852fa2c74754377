/* What the matrix adds to the facts: a GPU's compute capability from its
 * PCI id or name, and the CUDA versions the driver runs. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "diagnose/diagnose.h"
#include "i18n.h"
#include "matrix/matrix.h"
#include "util/strv.h"
#include "util/version.h"
#include "util/xalloc.h"

const char *
diagnose_driver_version(const struct facts *facts, const char **source)
{
	const struct driver_facts *d = &facts->driver;

	if (fact_known(&d->module_version) && version_valid(d->module_version.value)) {
		*source = d->module_version.source;
		return d->module_version.value;
	}
	if (fact_known(&d->sys_module_version) &&
	    version_valid(d->sys_module_version.value)) {
		*source = d->sys_module_version.source;
		return d->sys_module_version.value;
	}
	/* No module to ask (a container, say): the library that would be
	 * loaded carries the same version in its name. */
	for (size_t i = 0; i < d->libs.n; i++) {
		const struct driver_lib *l = &d->libs.v[i];

		if (l->version != NULL && !l->wsl && strcmp(l->name, "libcuda") == 0 &&
		    version_valid(l->version)) {
			*source = l->path;
			return l->version;
		}
	}
	return NULL;
}

void
diagnose_reach_evidence(const struct facts *facts, const char *drv,
    struct strv *out)
{
	const struct driver_facts *d = &facts->driver;
	const char *src, *own = diagnose_driver_version(facts, &src);

	/* max_cuda is what the kernel module's driver runs: say nothing for
	 * another driver (a forward-compatibility libcuda that is in use). */
	if (drv == NULL || own == NULL || strcmp(drv, own) != 0)
		return;
	if (fact_known(&d->max_cuda))
		strv_pushf(out, _("driver %s runs CUDA releases up to %s"),
		    drv, d->max_cuda.value);
	if (fact_known(&d->compat_major))
		strv_pushf(out,
		    _("driver %s runs every CUDA %s.x through minor-version compatibility"),
		    drv, d->compat_major.value);
}

/*
 * The compute capability: the matrix's row for the exact PCI id first
 * (curated, refreshed by `matrix update`), else what the probe read from
 * the chip in the pci.ids name (src/probe/gpuarch.c), else the matrix's
 * row for the name. The architecture follows the compute capability when
 * the probe did not name one.
 */
static void
annotate_gpu(struct gpu_fact *g, const struct matrix *m)
{
	const struct matrix_gpu *row = NULL;
	const struct matrix_architecture *arch;
	char *why = NULL;

	if (g->vendor_id == 0x10de)
		row = matrix_gpu_by_pci(m, g->device_id);
	if (row != NULL) {
		why = xasprintf(_("matrix: PCI id %04x:%04x is %s (%s)"),
		    g->vendor_id, g->device_id, row->name,
		    matrix_status_name(row->status));
	} else if (fact_known(&g->cc)) {
		/* The chip table answered. */
	} else if (fact_known(&g->name) &&
	    (row = matrix_gpu_by_name(m, g->name.value)) != NULL) {
		why = xasprintf(_("matrix name table: the name (from %s) "
		    "matches %s (%s)"), g->name.source, row->name,
		    matrix_status_name(row->status));
	}
	if (row != NULL) {
		if (fact_known(&g->cc) && strcmp(g->cc.value, row->cc) != 0) {
			/* Say both: the matrix row wins, the chip table
			 * disagrees. */
			char *both = xasprintf(_("%s; the chip table said %s"),
			    why, g->cc.value);

			free(why);
			why = both;
			fact_unknown(&g->arch, _("the matrix row (%s) and the "
			    "chip table disagree"), row->cc);
		}
		fact_set(&g->cc, row->cc, why);
		free(why);
	} else if (!fact_known(&g->cc)) {
		fact_unknown(&g->cc, _("neither the chip table nor the matrix "
		    "knows PCI id %04x:%04x or this name"), g->vendor_id,
		    g->device_id);
	}
	if (fact_known(&g->cc) && !fact_known(&g->arch) &&
	    (arch = matrix_architecture(m, g->cc.value)) != NULL) {
		why = xasprintf(_("matrix, for compute capability %s"),
		    g->cc.value);
		fact_set(&g->arch, arch->name, why);
		free(why);
	}
}

static void
annotate_driver(struct facts *facts, const struct matrix *m)
{
	struct driver_facts *d = &facts->driver;
	struct matrix_driver_reach reach;
	const char *source, *drv = diagnose_driver_version(facts, &source);
	char *src;

	if (drv == NULL) {
		fact_unknown(&d->max_cuda, _("the driver version is not known"));
		fact_unknown(&d->compat_major, _("the driver version is not known"));
		return;
	}
	if (!matrix_driver_reach(m, drv, facts->windows ? MATRIX_WINDOWS :
	    MATRIX_LINUX, &reach)) {
		fact_unknown(&d->max_cuda, _("%s is not a driver version"), drv);
		fact_unknown(&d->compat_major, _("%s is not a driver version"), drv);
		return;
	}
	src = xasprintf(_("matrix, for driver %s"), drv);
	if (reach.release_cuda[0] != '\0')
		fact_set(&d->max_cuda, reach.release_cuda, src);
	else
		fact_absent(&d->max_cuda, src);
	if (reach.compat_major > 0)
		fact_set_owned(&d->compat_major, xasprintf("%u", reach.compat_major), src);
	else
		fact_absent(&d->compat_major, src);
	free(src);
}

void
diagnose_annotate(struct facts *facts, const struct matrix *m)
{
	for (size_t i = 0; i < facts->gpus.n; i++)
		annotate_gpu(&facts->gpus.v[i], m);
	annotate_driver(facts, m);
}
