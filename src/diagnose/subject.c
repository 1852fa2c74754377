/* Findings' subjects (subject.h): one wording for the things rules are
 * about, so two findings of one code read differently and the same thing
 * reads the same everywhere. Pure. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "diagnose/rules_python_int.h"
#include "diagnose/subject.h"
#include "i18n.h"
#include "util/xalloc.h"

void
subj_in(struct finding *f, const char *what, const char *where)
{
	/* TRANSLATORS: a finding's subject: "torch 2.5.1 in /opt/venv". */
	finding_subject(f, _("%s in %s"), what, where);
}

void
subj_fw(struct finding *f, const struct py_env *e,
    const struct framework_fact *fw)
{
	char *w = pr_fw_words(fw);

	subj_in(f, w, e->prefix);
	free(w);
}

void
subj_who_needs(struct finding *f, const char *who, const char *where,
    const char *soname)
{
	/* TRANSLATORS: a finding's subject: "torch 2.5.1 in /opt/venv needs
	 * libcudart.so.12". */
	finding_subject(f, _("%s in %s needs %s"), who, where, soname);
}

void
subj_fw_needs(struct finding *f, const struct py_env *e,
    const struct framework_fact *fw, const char *soname)
{
	char *w = pr_fw_words(fw);

	subj_who_needs(f, w, e->prefix, soname);
	free(w);
}

static bool
needs_soname(const struct framework_fact *fw, const char *soname)
{
	for (size_t i = 0; i < fw->needs.n; i++)
		if (fw->needs.v[i].soname != NULL &&
		    strcmp(fw->needs.v[i].soname, soname) == 0)
			return true;
	return false;
}

void
subj_soname(struct finding *f, const struct facts *facts, const char *soname)
{
	const struct py_env *fe = NULL;
	const struct framework_fact *first = NULL;
	size_t more = 0;
	char *w;

	for (size_t i = 0; facts != NULL && i < facts->python_envs.n; i++) {
		const struct py_env *e = &facts->python_envs.v[i];

		for (size_t k = 0; k < e->frameworks.n; k++) {
			if (!needs_soname(&e->frameworks.v[k], soname))
				continue;
			if (first == NULL) {
				fe = e;
				first = &e->frameworks.v[k];
			} else {
				more++;
			}
		}
	}
	if (first == NULL) {
		finding_subject(f, "%s", soname);
		return;
	}
	if (more == 0) {
		subj_fw_needs(f, fe, first, soname);
		return;
	}
	w = pr_fw_words(first);
	/* TRANSLATORS: a finding's subject: "torch 2.5.1 in /opt/venv and
	 * others need libcudart.so.12". */
	finding_subject(f, _("%s in %s and others need %s"), w, fe->prefix,
	    soname);
	free(w);
}

void
subj_entry(struct finding *f, const char *var, const char *value, size_t n)
{
	if (n <= 1)
		/* TRANSLATORS: a finding's subject: "LD_LIBRARY_PATH entry
		 * /usr/local/cuda-11.8/lib64". */
		finding_subject(f, _("%s entry %s"), var, value);
	else
		/* TRANSLATORS: a finding's subject: "LD_LIBRARY_PATH entry
		 * /usr/local/cuda-11.8/lib64 and 2 more". */
		finding_subject(f, _("%s entry %s and %zu more"), var, value,
		    n - 1);
}

void
subj_gpu(struct finding *f, const struct facts *facts,
    const struct gpu_fact *g)
{
	size_t idx = facts != NULL && g >= facts->gpus.v &&
	    g < facts->gpus.v + facts->gpus.n ? (size_t)(g - facts->gpus.v) : 0;
	const char *name = fact_known(&g->name) ? g->name.value :
	    g->pci_address != NULL ? g->pci_address : "?";

	/* TRANSLATORS: a finding's subject: "GPU 0 NVIDIA H100 80GB HBM3". */
	finding_subject(f, _("GPU %zu %s"), idx, name);
}

void
subj_driver(struct finding *f, const char *version)
{
	if (version == NULL)
		finding_subject(f, "%s", _("the NVIDIA driver"));
	else
		/* TRANSLATORS: a finding's subject: "driver 470.256.02". */
		finding_subject(f, _("driver %s"), version);
}

void
subj_toolkit(struct finding *f, const struct toolkit_fact *t)
{
	if (fact_known(&t->version))
		/* TRANSLATORS: a finding's subject: "CUDA 12.4 in
		 * /usr/local/cuda-12.4" (a toolkit). */
		finding_subject(f, _("CUDA %s in %s"), t->version.value, t->root);
	else
		finding_subject(f, "%s", t->root);
}
