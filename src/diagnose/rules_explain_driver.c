/* The explain rules for driver messages: a driver too old for the CUDA
 * a program was built with, a library and kernel module that do not
 * match, no GPU seen, the stub libcuda; see rules_explain.c. Pure. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "diagnose/diagnose.h"
#include "diagnose/subject.h"
#include "diagnose/fixcmd.h"
#include "diagnose/fixdriver.h"
#include "diagnose/rules_explain_int.h"
#include "diagnose/rules_install_plan.h"
#include "diagnose/rules_loader_int.h"
#include "explain/recognize.h"
#include "i18n.h"
#include "matrix/matrix.h"
#include "util/pathnorm.h"
#include "util/shquote.h"
#include "util/strbuf.h"
#include "util/version.h"
#include "util/xalloc.h"

/* ---------------------------------------------------- driver messages */

/* The minimum driver the newest CUDA runtime here needs, or NULL. */
const char *
rx_needed_driver(const struct ctx *c, const char **cuda)
{
	const char *best = NULL;

	*cuda = NULL;
	for (size_t i = 0; c->m != NULL && i < c->facts->toolkits.n; i++) {
		const struct toolkit_fact *t = &c->facts->toolkits.v[i];
		const char *min;

		if (!fact_known(&t->version))
			continue;
		min = matrix_cuda_min_driver(c->m, t->version.value, MATRIX_LINUX, NULL);
		if (min != NULL && (best == NULL || version_cmp_str(min, best) > 0)) {
			best = min;
			*cuda = t->version.value;
		}
	}
	return best;
}

void
rx_toolkit_need_evidence(const struct ctx *c, struct finding *f)
{
	for (size_t i = 0; c->m != NULL && i < c->facts->toolkits.n; i++) {
		const struct toolkit_fact *t = &c->facts->toolkits.v[i];
		const char *min;

		if (!fact_known(&t->version))
			continue;
		min = matrix_cuda_min_driver(c->m, t->version.value, MATRIX_LINUX, NULL);
		if (min != NULL)
			strv_pushf(&f->evidence, _("CUDA %s at %s needs driver >= %s"),
			    t->version.value, t->root, min);
	}
}

void
rx_explain_driver_old(struct ctx *c, const struct explain_match *m)
{
	const char *src, *drv = rx_driver_version(c, &src), *cuda, *need;
	struct finding *f;

	if ((f = rx_adopt(c, FINDING_DRIVER_TOO_OLD, m)) != NULL)
		return;
	if ((f = rx_have(c, FINDING_DRIVER_TOO_OLD)) != NULL) {
		rx_message_evidence(f, m);
		return;
	}
	if (drv != NULL)
		f = finding_add(c->out, FINDING_DRIVER_TOO_OLD,
		    _("The program's CUDA runtime needs a newer NVIDIA driver than "
		    "the one in use here (%s%s%s). A driver runs CUDA runtimes up "
		    "to its own CUDA version (and, from CUDA 11 on, the other "
		    "minors of its major); a newer runtime fails with "
		    "cudaErrorInsufficientDriver (35)."), drv,
		    fact_known(&c->facts->driver.max_cuda) ? _(", CUDA up to ") : "",
		    fact_known(&c->facts->driver.max_cuda) ?
		    c->facts->driver.max_cuda.value : "");
	else
		f = finding_add(c->out, FINDING_DRIVER_TOO_OLD,
		    _("The program's CUDA runtime needs a newer NVIDIA driver than "
		    "the one it found. cudawiz cannot read the driver version here, "
		    "so the program may have run elsewhere (a container, another "
		    "machine)."));
	subj_driver(f, drv);
	rx_message_evidence(f, m);
	if (m->found != NULL)
		strv_pushf(&f->evidence, _("the message: the driver supports CUDA %s"),
		    m->found);
	rx_driver_evidence(c, f);
	rx_toolkit_need_evidence(c, f);
	rx_resolution_evidence(f, rx_lib_named(c, "libcuda.so.1"));
	finding_evidence_cap(f, EVIDENCE_MAX);
	need = rx_needed_driver(c, &cuda);
	if (need == NULL && c->m != NULL) {
		const struct matrix_cuda_release *newest = matrix_newest_cuda(c->m);

		if (newest != NULL) {
			need = newest->linux_driver;
			cuda = newest->version;
		}
	}
	if (need != NULL) {
		fd_place_evidence(f, c->facts);
		fd_install(f, c->facts, c->m, need, cuda);
	}
	if (fact_known(&c->facts->driver.max_cuda)) {
		unsigned mj = version_major_str(c->facts->driver.max_cuda.value);
		const struct matrix_wheel *w;
		char so[32];
		const struct matrix_soname *row = c->m != NULL ?
		    matrix_soname_for(c->m, "cudart", c->facts->driver.max_cuda.value) : NULL;

		snprintf(so, sizeof so, "%s", row != NULL ? row->soname : "");
		w = row != NULL ? ip_wheel_for(c->m, "cudart", mj, so) : NULL;
		strv_pushf(&f->fix, _("# or use a framework build and CUDA runtime for CUDA %s or older, which this driver runs:"),
		    c->facts->driver.max_cuda.value);
		if (w != NULL) {
			/* The wheel's name ties the major; CUDA's minor version
			 * compatibility runs any of its minors on this driver. */
			struct fix_want want = { .channel = "pip",
			    .package = w->package };

			fixcmd_install(c->m, f, NULL, &want, 1);
		}
	}
	if (f->fix.n == 0) {
		lr_fix_comment(f, _("see which driver is installed and which CUDA it runs:"));
		ip_fix_line(f, xstrdup("nvidia-smi"));
	}
}

void
rx_explain_mismatch(struct ctx *c, const struct explain_match *m)
{
	const struct driver_facts *d = &c->facts->driver;
	struct finding *f;

	rx_adopt(c, FINDING_DKMS_MODULE_MISSING, m);
	if (rx_adopt(c, FINDING_DRIVER_LIBRARY_MISMATCH, m) != NULL)
		return;
	if ((f = rx_have(c, FINDING_DRIVER_LIBRARY_MISMATCH)) != NULL) {
		rx_message_evidence(f, m);
		return;
	}
	if (m->found != NULL && m->wanted != NULL)
		f = finding_add(c->out, FINDING_DRIVER_LIBRARY_MISMATCH,
		    _("The running nvidia kernel module is version %s but the "
		    "driver's userspace libraries are %s: the driver was updated "
		    "and the old module is still loaded, or a second driver "
		    "install left its libraries behind."), m->found, m->wanted);
	else
		f = finding_add(c->out, FINDING_DRIVER_LIBRARY_MISMATCH,
		    _("The running nvidia kernel module and the driver's userspace "
		    "libraries (libcuda, libnvidia-ml) are different versions: "
		    "the driver was updated and the old module is still loaded, or "
		    "a second driver install left its libraries behind."));
	subj_driver(f, m->found);
	rx_message_evidence(f, m);
	if (fact_known(&d->module_version))
		strv_pushf(&f->evidence, "%s: %s", d->module_version.source,
		    d->module_version.value);
	for (size_t i = 0; i < d->libs.n; i++)
		if (!d->libs.v[i].wsl && d->libs.v[i].version != NULL)
			strv_pushf(&f->evidence, "%s: %s", d->libs.v[i].path,
			    d->libs.v[i].version);
	finding_evidence_cap(f, EVIDENCE_MAX);
	if (fd_place(c->facts) != FD_HOST) {
		fd_place_evidence(f, c->facts);
		fd_modprobe(f, c->facts);
		return;
	}
	lr_fix_comment(f, _("load the module that matches the installed libraries: reboot"));
	fd_reboot(f, c->facts);
	lr_fix_comment(f, _("or, with nothing using the GPU, reload the modules:"));
	fd_reload(f, c->facts, false);
	lr_fix_comment(f, _("if that does not help, reinstall one driver so "
	    "module and libraries agree:"));
	fd_reinstall(f, c->facts, c->m, m->wanted != NULL &&
	    strchr(m->wanted, '.') != NULL ? m->wanted : NULL);
}

/* The findings that say why no GPU or driver is usable here. */
void
rx_explain_no_gpu(struct ctx *c, const struct explain_match *m)
{
	static const enum finding_code codes[] = {
		FINDING_NO_NVIDIA_GPU, FINDING_NOUVEAU_ACTIVE,
		FINDING_DKMS_MODULE_MISSING, FINDING_DRIVER_NOT_LOADED,
		FINDING_DRIVER_LIBRARY_MISMATCH, FINDING_NO_VISIBLE_DEVICES,
	};

	struct explain_match as_lib = *m;

	for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
		if (m->kind == EXPLAIN_NO_DRIVER && codes[i] == FINDING_NO_VISIBLE_DEVICES)
			continue;
		rx_adopt(c, codes[i], m);
	}
	/* The same question as a message about libcuda.so.1 itself. */
	as_lib.soname = (char *)"libcuda.so.1";
	rx_driver_library(c, &as_lib);
}

void
rx_explain_stub(struct ctx *c, const struct explain_match *m)
{
	const struct lib_fact *lib = rx_lib_named(c, "libcuda.so.1");
	const struct path_var *llp = &c->facts->env.ld_library_path;
	struct finding *f;
	char *line;
	const char *cuda, *need;

	rx_library_rules(c, "libcuda.so.1", m);
	/* dlopen("libcuda.so") is what finds a stub in a stubs directory;
	 * its absence alone says nothing. */
	if (rx_lib_named(c, "libcuda.so") != NULL &&
	    rx_lib_named(c, "libcuda.so")->resolved != NULL)
		rx_library_rules(c, "libcuda.so", m);
	if ((f = rx_have(c, FINDING_STUB_LIBCUDA)) != NULL) {
		/* The message proves a program loaded it. */
		f->severity = SEV_ERROR;
		rx_message_evidence(f, m);
		return;
	}
	if (lib != NULL && lib->resolved != NULL)
		f = finding_add(c->out, FINDING_STUB_LIBCUDA,
		    _("The program loaded a CUDA toolkit's stub libcuda, which "
		    "exists only for linking: every CUDA call fails with "
		    "CUDA_ERROR_STUB_LIBRARY (34). Here libcuda.so.1 resolves to "
		    "%s, so the program ran with another library path (a stubs "
		    "directory on its LD_LIBRARY_PATH or RPATH) or in another "
		    "environment."), lib->resolved);
	else
		f = finding_add(c->out, FINDING_STUB_LIBCUDA,
		    _("The program loaded a CUDA toolkit's stub libcuda, which "
		    "exists only for linking: every CUDA call fails with "
		    "CUDA_ERROR_STUB_LIBRARY (34). It finds the stub because the "
		    "driver's own libcuda.so.1 is not installed, or a stubs "
		    "directory comes first in its search."));
	rx_message_evidence(f, m);
	rx_resolution_evidence(f, lib);
	for (size_t i = 0; i < llp->entries.n; i++)
		if (!llp->entries.v[i].empty && lr_is_stubs_dir(llp->entries.v[i].value))
			strv_pushf(&f->evidence, _("LD_LIBRARY_PATH entry %zu is a stubs directory: %s"),
			    i + 1, llp->entries.v[i].value);
	for (size_t i = 0; i < c->facts->toolkits.n; i++)
		if (c->facts->toolkits.v[i].stubs_dir != NULL)
			strv_pushf(&f->evidence, _("a stub libcuda lives in %s"),
			    c->facts->toolkits.v[i].stubs_dir);
	finding_evidence_cap(f, EVIDENCE_MAX);
	line = lr_llp_filter(c->facts, rx_drop_stubs, NULL);
	if (line != NULL) {
		lr_fix_comment(f, _("take the stubs directory out of LD_LIBRARY_PATH "
		    "(link with -L, never run with it):"));
		ip_fix_line(f, line);
	}
	if (lib == NULL || lib->resolved == NULL) {
		need = rx_needed_driver(c, &cuda);
		lr_fix_comment(f, _("install the NVIDIA driver, which brings the real "
		    "libcuda.so.1:"));
		if (need != NULL)
			ip_driver_fix(&c->ip, f, need);
		else
			ip_fix_line(f, xstrdup("sudo ubuntu-drivers install"));
	}
	if (line == NULL && lib != NULL && lib->resolved != NULL) {
		lr_fix_comment(f, _("in the environment that failed, find what puts "
		    "the stubs directory first:"));
		ip_fix_line(f, xstrdup("printf '%s\\n' \"$LD_LIBRARY_PATH\" | tr ':' '\\n' | grep -n stubs"));
	}
}

